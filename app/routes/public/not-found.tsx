import { data } from "react-router";
import { NotFoundPage } from "~/components/ErrorPages";

/** Any other path: the "Not found" page with a real 404 status. */
export function loader() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  return <NotFoundPage />;
}
