import { useTranslation } from "~/i18n";
import { useRouteLoaderData } from "react-router";
import type { Route } from "./+types/accessibility";
import type { loader as rootLoader } from "~/root";
import { PublicPage } from "~/components/PublicShell";
import { LegalList } from "~/components/LegalText";
import { getPlatform } from "~/.server/platform";

/**
 * The accessibility statement required in France (RGAA, issue 16 §10), public: the conformity level the
 * project's own audit supports (axe-core on every journey state, JS on and off, no manual audit yet:
 * "partiellement conforme"), the known non-accessible content, the contact and the recourse.
 */
export async function loader() {
  const { env } = await getPlatform();
  return { support: env.SUPPORT_URL };
}

export default function Accessibility({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const product = useRouteLoaderData<typeof rootLoader>("root")?.productName ?? "";
  const section = (key: string, body: React.ReactNode) => (
    <section aria-labelledby={`accessibility-${key}`}>
      <h2 id={`accessibility-${key}`}>{t(`legal.accessibility.${key}Title`)}</h2>
      {body}
    </section>
  );
  return (
    <PublicPage title={t("legal.accessibility.title")}>
      <p>{t("legal.accessibility.intro", { product })}</p>
      {section("status", <p>{t("legal.accessibility.status")}</p>)}
      {section("results", <LegalList page="accessibility" list="results" />)}
      {section("issues", <LegalList page="accessibility" list="issues" />)}
      {section("method", <p>{t("legal.accessibility.method")}</p>)}
      {section(
        "contact",
        <>
          <p>{t("legal.accessibility.contact")}</p>
          <p>
            <a href={loaderData.support}>{t("legal.accessibility.contactLink")}</a>
          </p>
        </>,
      )}
      {section(
        "recourse",
        <>
          <p>{t("legal.accessibility.recourse")}</p>
          <LegalList page="accessibility" list="recourseItems" />
        </>,
      )}
    </PublicPage>
  );
}
