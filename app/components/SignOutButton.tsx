import { Form } from "react-router";
import { useTranslation } from "~/i18n";

/** The way out of the steps that come before the portal (onboarding, securing the account). */
export function SignOutButton() {
  const { t } = useTranslation();
  return (
    <Form method="post" action="/logout" className="toolbar__actions">
      <button type="submit" className="link-button">
        {t("onboarding.logout")}
      </button>
    </Form>
  );
}
