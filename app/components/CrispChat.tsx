import { useEffect, useState } from "react";
import { useTranslation } from "~/i18n";
import { SIGN_OUT_EVENT } from "./SignOutButton";

interface CrispSettings {
  provider: "crisp";
  websiteId: string;
  tokenId: string;
}

/**
 * Loads Crisp (crisp-sdk-web) in the browser and opens the chat, identified by the user's token id
 * (issue 16 §5). Only with JS (the module is imported from an effect, never on the server), only when
 * the portal is configured for Crisp (the route renders this then, and the CSP allows Crisp only then:
 * server/security.ts). Signing out resets the Crisp session.
 */
export function CrispChat({
  settings,
  user,
  context,
}: {
  settings: CrispSettings;
  user: { email: string; name: string };
  context: string | null;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    let cancelled = false;
    void import("crisp-sdk-web").then(({ Crisp }) => {
      if (cancelled) return;
      Crisp.configure(settings.websiteId, { autoload: false });
      Crisp.setTokenId(settings.tokenId);
      Crisp.user.setEmail(user.email);
      Crisp.user.setNickname(user.name);
      if (context) Crisp.session.setData({ context });
      Crisp.load();
      Crisp.chat.open();
      setOpened(true);
    });
    return () => {
      cancelled = true;
    };
  }, [settings.websiteId, settings.tokenId, user.email, user.name, context]);
  return <p role="status">{opened ? null : t("support.opening")}</p>;
}

/**
 * Crisp keeps its session in first-party cookies named `crisp-client/…` (URL-encoded): forgetting them
 * resets the session in a page where the widget was not loaded, without loading it.
 */
function forgetCrispCookies() {
  for (const pair of document.cookie.split(";")) {
    const name = pair.split("=")[0]!.trim();
    if (!name.startsWith("crisp-client")) continue;
    const expired = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
    document.cookie = expired;
    document.cookie = `${expired}; domain=${location.hostname}`;
  }
}

/**
 * On sign-out (with JS), forgets the Crisp session in this browser: through the widget when it is
 * loaded in this page (token forgotten, session reset), else by forgetting Crisp's cookies.
 */
export function resetCrispOnSignOut(): () => void {
  const reset = () => {
    void import("crisp-sdk-web").then(({ Crisp }) => {
      if (Crisp.isCrispInjected()) {
        Crisp.setTokenId();
        Crisp.session.reset(false);
      } else forgetCrispCookies();
    });
  };
  window.addEventListener(SIGN_OUT_EVENT, reset);
  return () => window.removeEventListener(SIGN_OUT_EVENT, reset);
}
