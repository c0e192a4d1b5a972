import { Form } from "react-router";
import { useTranslation } from "~/i18n";

/**
 * The one sign-out form (a POST to /logout). `steps`: the link-like way out of the steps that come
 * before the portal (onboarding, securing the account); `menu`: the button of the portal's user menu.
 */
export function SignOutButton({ look = "steps" }: { look?: "steps" | "menu" }) {
  const { t } = useTranslation();
  const menu = look === "menu";
  return (
    <Form method="post" action="/logout" className={menu ? "user-menu__logout" : "toolbar__actions"}>
      <button type="submit" className={menu ? "button button--secondary" : "link-button"}>
        {t(menu ? "userMenu.logout" : "onboarding.logout")}
      </button>
    </Form>
  );
}
