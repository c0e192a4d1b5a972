import type { ReactNode } from "react";
import { Link, useRouteLoaderData } from "react-router";
import { useTranslation } from "~/i18n";
import type { LightVersion } from "~/domain/light-version";
import type { loader as rootLoader } from "~/root";

/** Whether this page is served light (no script at all, decision 0040), and why; null for the full version. */
export function useLightVersion(): LightVersion {
  return useRouteLoaderData<typeof rootLoader>("root")?.light ?? null;
}

/**
 * What a browser without JavaScript gets (a meta refresh, a "this needs JavaScript" line): in `<noscript>` on
 * full pages, and as plain content on light ones — there the browser may well run scripts, but the page has
 * none, so it must behave as the no-JS page.
 */
export function NoScript({ children }: { children: ReactNode }) {
  return useLightVersion() ? <>{children}</> : <noscript>{children}</noscript>;
}

/**
 * On a light page, a discreet line saying so and how to leave it (the footer, and where a form needs
 * JavaScript: Stripe's card forms); nothing on a full page.
 */
export function LightVersionNote({ className }: { className: string }) {
  const { t } = useTranslation();
  const light = useLightVersion();
  if (!light) return null;
  return (
    <p className={className}>
      {light === "saveData" ? (
        t("lightVersion.onSaveData")
      ) : (
        <>
          {t("lightVersion.onAccount")} <Link to={LIGHT_VERSION_SETTING}>{t("lightVersion.leave")}</Link>
        </>
      )}
    </p>
  );
}

/** Where the setting is: the profile settings' "Affichage" section. */
export const LIGHT_VERSION_SETTING = "/settings/profile#light-version";
