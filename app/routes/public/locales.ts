import { data } from "react-router";
import type { Route } from "./+types/locales";
import resources from "~/locales";

/** The catalogue the browser needs to hydrate; only the displayed language is served. */
export function loader({ params }: Route.LoaderArgs) {
  if (params.lng !== "fr") throw data(null, { status: 404 });
  return Response.json(resources.fr.translation, {
    headers: { "Cache-Control": "public, max-age=300, stale-while-revalidate=86400" },
  });
}
