import { useTranslation } from "~/i18n";
import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";
import { LightVersionNote } from "./LightVersion";
import { AppLink } from "~/components/AppLink";

/** The footer names the statement with the portal's conformity state (the model statement's wording). */
const ACCESSIBILITY_LINK = {
  total: "legal.accessibility.linkTotal",
  partial: "legal.accessibility.linkPartial",
  none: "legal.accessibility.linkNone",
} as const;

export function SiteFooter() {
  const { t } = useTranslation();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  if (!root) return null;
  return (
    <footer className="site-footer">
      <h2 className="site-footer__title">{t("footer.appsTitle")}</h2>
      <ul className="site-footer__apps">
        <li>
          <a href={root.stores.appStore} rel="noopener">
            {t("footer.appStore")}
          </a>
        </li>
        <li>
          <a href={root.stores.playStore} rel="noopener">
            {t("footer.playStore")}
          </a>
        </li>
      </ul>
      <nav className="site-footer__legal" aria-label={t("legal.footerLabel")}>
        <ul>
          <li>
            <AppLink to="/terms">{t("legal.terms.link")}</AppLink>
          </li>
          <li>
            <AppLink to="/privacy">{t("legal.privacy.link")}</AppLink>
          </li>
          <li>
            <AppLink to="/accessibilite">{t(ACCESSIBILITY_LINK[root.accessibility])}</AppLink>
          </li>
          <li>
            <AppLink to="/cookies">{t("footer.cookies")}</AppLink>
          </li>
          <li>
            <AppLink to="/plan-du-site">{t("legal.siteMap.link")}</AppLink>
          </li>
        </ul>
      </nav>
      <LightVersionNote className="site-footer__copy" />
      <p className="site-footer__copy">
        {t("footer.copyright", { year: new Date().getFullYear(), product: root.productName })}
      </p>
    </footer>
  );
}
