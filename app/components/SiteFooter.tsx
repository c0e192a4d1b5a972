import { useTranslation } from "~/i18n";
import { Link, useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";

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
      <p className="site-footer__consent">
        <Link to="/cookies">{t("footer.cookies")}</Link>
      </p>
      <p className="site-footer__copy">
        {t("footer.copyright", { year: new Date().getFullYear(), product: root.productName })}
      </p>
    </footer>
  );
}
