import { data } from "react-router";
import type { Route } from "./+types/locales";
import { getPlatform } from "~/.server/platform";
import resources from "~/i18n/catalogues";

/** The catalogue the browser needs to hydrate; only the languages pages may be shown in are served. */
export async function loader({ params }: Route.LoaderArgs) {
  const { env } = await getPlatform();
  const lng = env.SUPPORTED_LOCALES.find((supported) => supported === params.lng);
  if (!lng) throw data(null, { status: 404 });
  return Response.json(resources[lng].translation, {
    headers: { "Cache-Control": "public, max-age=300, stale-while-revalidate=86400" },
  });
}
