import type { Route } from "./+types/accessibility-redirect";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";

/** The statement's former address: a permanent redirect to /accessibilite (decision 0068), its query kept. */
export function loader({ request }: Route.LoaderArgs) {
  const search = Object.fromEntries(new URL(request.url).searchParams);
  return internalRedirect(internalPath("/accessibilite", {}, { search }), 301);
}
