import { useTranslation } from "~/i18n";
import { Form, Link } from "react-router";
import type { Route } from "./+types/logout";
import { PublicPage } from "~/components/PublicShell";
import { currentUserId, signOut } from "~/routes/+shared/auth.server";
import { internalRedirect } from "~/routes/+shared/redirects.server";

/** Signing out is a POST (a link or prefetch must never end a session); GET asks to confirm. */
export async function loader({ request }: Route.LoaderArgs) {
  if (!(await currentUserId(request))) throw internalRedirect("/login");
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  return signOut(request);
}

export default function Logout() {
  const { t } = useTranslation();
  return (
    <PublicPage title={t("auth.logout.title")}>
      <p>{t("auth.logout.intro")}</p>
      <Form method="post">
        <button type="submit" className="button">
          {t("auth.logout.submit")}
        </button>
      </Form>
      <p>
        <Link to="/cards" className="link-action">
          {t("auth.logout.cancel")}
        </Link>
      </p>
    </PublicPage>
  );
}
