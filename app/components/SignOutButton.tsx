import { useState } from "react";
import { Form, useSubmit } from "react-router";
import { useTranslation } from "~/i18n";

/** Spec 001 §2.2: with JS, signing out shows its loader for this long before leaving. */
export const SIGN_OUT_LOADER_MS = 1000;

/**
 * The one sign-out form (a POST to /logout). `steps`: the link-like way out of the steps that come
 * before the portal (onboarding, securing the account); `menu`: the button of the portal's user menu.
 * With JS the submission waits one second behind a polite "signing out" loader (spec 001 §2.2), and
 * the support chat is reset first (`resetSupportChat`); without JS it is an immediate POST.
 */
export function SignOutButton({ look = "steps" }: { look?: "steps" | "menu" }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const [leaving, setLeaving] = useState(false);
  const menu = look === "menu";
  return (
    <Form
      method="post"
      action="/logout"
      className={menu ? "user-menu__logout" : "toolbar__actions"}
      onSubmit={(event) => {
        event.preventDefault();
        if (leaving) return;
        const form = event.currentTarget;
        setLeaving(true);
        window.dispatchEvent(new Event(SIGN_OUT_EVENT));
        setTimeout(() => void submit(form), SIGN_OUT_LOADER_MS);
      }}
    >
      <button type="submit" className={menu ? "button button--secondary" : "link-button"}>
        {t(menu ? "userMenu.logout" : "onboarding.logout")}
      </button>
      <span role="status" className={leaving ? "sign-out-loader" : "visually-hidden"}>
        {leaving ? t("pageLoader.signingOut") : null}
      </span>
    </Form>
  );
}

/** Dispatched on window when signing out with JS: the support chat's browser client resets on it. */
export const SIGN_OUT_EVENT = "portal:sign-out";
