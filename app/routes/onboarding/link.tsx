import { data } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/link";
import { BackToLogin, PublicPage } from "~/components/PublicShell";
import { currentUserId } from "~/routes/+shared/auth.server";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";
import { getPlatform } from "~/.server/platform";
import { invitationEmail } from "~/.server/services/activation";

/**
 * `/onboarding/:token` (spec 001 §2.1, public): the onboarding link of an invitation, which carries its
 * token but not the address. A live invitation goes on to its activation (`/activate/:token?email=`,
 * where the onboarding starts); a signed-in person goes to their onboarding; any other link reads as
 * the activation page's spent link, whoever asks. Nothing is written here.
 */
const HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

export async function loader({ request, params }: Route.LoaderArgs) {
  const token = params.token.slice(0, 100);
  const { db } = await getPlatform();
  const email = await invitationEmail(db, token);
  if (email)
    throw internalRedirect(internalPath("/activate/:token?", { token }, { search: { email } }), { headers: HEADERS });
  if (await currentUserId(request)) throw internalRedirect("/onboarding", { headers: HEADERS });
  return data(null, { status: 410, headers: HEADERS });
}

export default function OnboardingLink() {
  const { t } = useTranslation();
  return (
    <PublicPage title={t("auth.activate.title")}>
      <div className="alert alert--error" role="alert">
        <p>{t("auth.activate.expired")}</p>
      </div>
      <BackToLogin />
    </PublicPage>
  );
}
