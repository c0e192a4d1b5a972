import type { ReactNode } from "react";
import { useTranslation } from "~/i18n";
import { Link, useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";
import { FlashAlert } from "./FlashAlert";
import { PageHeader } from "./PageHeader";
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

/** The way back to the sign-in page, under a public page's content. */
export function BackToLogin() {
  const { t } = useTranslation();
  return (
    <p>
      <Link to="/login" className="link-action">
        {t("auth.lostPassword.back")}
      </Link>
    </p>
  );
}

/** A page seen before signing in: the public frame, a narrow column and the page's heading. */
export function PublicPage({ title, error, children }: { title: string; error?: boolean; children: ReactNode }) {
  return (
    <PublicShell>
      <div className="narrow">
        <PageHeader title={title} error={error} />
        {children}
      </div>
    </PublicShell>
  );
}
