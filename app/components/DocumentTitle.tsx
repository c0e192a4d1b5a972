import { useTranslation } from "~/i18n";
import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";

/** "<page> – <product>", prefixed "Erreur : " after a failed submit (RGAA 8.6). React hoists it into <head>. */
export function DocumentTitle({ page, error = false }: { page: string; error?: boolean }) {
  const { t } = useTranslation();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const product = root?.productName ?? "Portail Avantages";
  return <title>{`${error ? t("app.errorTitlePrefix") : ""}${page} – ${product}`}</title>;
}
