import { useTranslation } from "~/i18n";
import { useRouteLoaderData } from "react-router";
import type { Route } from "./+types/terms";
import type { loader as rootLoader } from "~/root";
import { PublicPage } from "~/components/PublicShell";
import { LegalList } from "~/components/LegalText";
import { NewTabLink } from "~/components/NewTabLink";
import { getPlatform } from "~/.server/platform";

/** The terms of use inside the portal (issue 16 §10), public; the funder's full text stays on the service's site. */
export async function loader() {
  const { env } = await getPlatform();
  return { full: env.LEGAL_URL };
}

export default function Terms({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const product = useRouteLoaderData<typeof rootLoader>("root")?.productName ?? "";
  return (
    <PublicPage title={t("legal.terms.title")}>
      <p>{t("legal.terms.intro", { product })}</p>
      <LegalList page="terms" list="items" />
      <p>
        <NewTabLink href={loaderData.full}>{t("legal.terms.full")}</NewTabLink>
      </p>
    </PublicPage>
  );
}
