import { useTranslation } from "~/i18n";
import { useRouteLoaderData } from "react-router";
import type { Route } from "./+types/privacy";
import type { loader as rootLoader } from "~/root";
import { PublicPage } from "~/components/PublicShell";
import { LegalList } from "~/components/LegalText";
import { NewTabLink } from "~/components/NewTabLink";
import { getPlatform } from "~/.server/platform";

/** The privacy policy inside the portal (issue 16 §10), public; the full policy stays on the service’s site. */
export async function loader() {
  const { env } = await getPlatform();
  return { full: env.PRIVACY_URL };
}

export default function Privacy({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const product = useRouteLoaderData<typeof rootLoader>("root")?.productName ?? "";
  return (
    <PublicPage title={t("legal.privacy.title")}>
      <p>{t("legal.privacy.intro", { product })}</p>
      <LegalList page="privacy" list="items" />
      <p>
        <NewTabLink href={loaderData.full}>{t("legal.privacy.full")}</NewTabLink>
      </p>
    </PublicPage>
  );
}
