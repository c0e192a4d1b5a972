import type { ReactNode } from "react";
import { useTranslation } from "~/i18n";
import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";
import { FlashAlert } from "./FlashAlert";
import { LogoMark } from "./Logo";
import { SiteFooter } from "./SiteFooter";

/** The frame of pages seen before signing in (and of the error pages): logo, main, footer. */
export function PublicShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const product = root?.productName ?? "Portail Avantages";
  return (
    <>
      <a className="skip-link" href="#main">
        {t("app.skipLink")}
      </a>
      <header className="site-header site-header--public">
        <a className="logo" href="/cards" aria-label={t("app.logoLabel", { product })}>
          <LogoMark />
          <span className="logo__text" aria-hidden="true">
            {product}
          </span>
        </a>
      </header>
      <main id="main" className="public-main" tabIndex={-1}>
        <FlashAlert />
        {children}
      </main>
      <SiteFooter />
    </>
  );
}
