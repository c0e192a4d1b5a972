import { Outlet } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/layout";
import { PageHeader } from "~/components/PageHeader";
import { PublicShell } from "~/components/PublicShell";
import { SignOutButton } from "~/components/SignOutButton";
import { accountContext, requireSignedIn } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { isOnboarded } from "~/.server/services/accounts";
import { mustSetUpMfa } from "~/.server/services/security";
import { internalRedirect } from "~/routes/+shared/redirects.server";

/**
 * Spec 001 §4 "MFA-required": an onboarded account without a second factor and without bypassMFA is
 * held here, and cannot go on until it is set up; a pending e-mail or phone change is settled first.
 * Every signed-in page sends such an account here (requireAccount), so there is nothing to dismiss.
 */
const onlyHeldAccounts: Route.MiddlewareFunction = async ({ context }, next) => {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  if (!(await isOnboarded(db, account))) throw internalRedirect("/onboarding");
  if (!mustSetUpMfa(account)) throw internalRedirect("/cards");
  return next();
};

export const middleware = [requireSignedIn, onlyHeldAccounts];

export default function SecureAccountLayout() {
  const { t } = useTranslation();
  return (
    <PublicShell>
      <div className="narrow">
        <PageHeader title={t("secureAccount.title")} namesDocument={false}>
          <SignOutButton />
        </PageHeader>
        <p>{t("secureAccount.intro")}</p>
        <Outlet />
      </div>
    </PublicShell>
  );
}
