import { useTranslation } from "~/i18n";
import type { Route } from "./+types/second-factor";
import { DocumentTitle } from "~/components/DocumentTitle";
import { MfaConfirmation, MfaOptions } from "~/components/SecondFactor";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { listCards } from "~/.server/services/cards";
import { pendingFields } from "~/.server/services/profile";
import { mfaChannelOf, PENDING_CHANGE_FIRST } from "~/domain/mfa";
import { enableMfa, mfaStatus } from "~/.server/services/security";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";

/** Step 2: choose e-mail (recommended) or SMS, confirm; then the portal opens (spec 001 §4, §6). */

export async function loader({ request, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  // A change still waiting for its code comes first (the new number may be where codes go).
  const [field] = await pendingFields(db, account.id);
  if (field) throw internalRedirect(internalPath("/secure-account/pending/:field", { field }));
  const mfa = mfaStatus(account);
  const channel = mfaChannelOf(new URL(request.url).searchParams.get("channel"));
  if (channel && !mfa.destinations[channel]) throw internalRedirect("/secure-account/second-factor");
  return { mfa, channel };
}

export async function action({ request, context }: Route.ActionArgs) {
  const channel = mfaChannelOf((await request.formData()).get("channel"));
  const { db } = await getPlatform();
  const result = channel ? await enableMfa(db, context.get(accountContext), channel) : { kind: "noDestination" as const };
  // A change still waiting for its code is settled first, as the page itself would have said.
  if (result.kind === "pendingChange") {
    return redirectWithFlash(request, internalPath("/secure-account/pending/:field", { field: result.field }), { kind: "error", message: PENDING_CHANGE_FIRST[result.field] });
  }
  if (result.kind !== "ok") return redirectWithFlash(request, "/secure-account/second-factor", { kind: "error", message: "errors.mfaNoDestination" });
  // Straight to the first card: a message survives one redirect only.
  const [card] = await listCards(db, context.get(accountContext).id);
  return redirectWithFlash(request, card ? internalPath("/cards/:cardId", { cardId: card.id }) : "/cards", { kind: "success", message: "secureAccount.done" });
}

export default function SecureAccountSecondFactor({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { mfa, channel } = loaderData;
  const title = t(channel ? (channel === "EMAIL" ? "mfa.confirmTitleEmail" : "mfa.confirmTitleSms") : "secureAccount.chooseTitle");
  return (
    <section aria-labelledby="secure-account-step">
      <DocumentTitle page={title} />
      <h2 id="secure-account-step">{title}</h2>
      {channel ? (
        <MfaConfirmation channel={channel} destination={mfa.destinations[channel]!} backHref="/secure-account/second-factor" profileHref={null} />
      ) : (
        <>
          <p>{t("secureAccount.chooseIntro")}</p>
          <MfaOptions mfa={mfa} chooseHref={(c) => `/secure-account/second-factor?channel=${c}`} profileHref={null} />
        </>
      )}
    </section>
  );
}
