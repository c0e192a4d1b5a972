import { data } from "react-router";
import { NotFoundContent } from "~/components/ErrorPages";

/**
 * Any other address (routes.ts's catch-all): the "Not found" page with a real 404 status, inside the
 * signed-in shell and its navigation. Someone not signed in never reaches this module: the middleware of
 * routes/shell/not-found-layout.tsx answers them with the public 404 page (`NotFoundPage`).
 */
export function loader() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  return <NotFoundContent />;
}
