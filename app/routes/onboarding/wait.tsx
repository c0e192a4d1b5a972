import { href, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/wait";
import { DocumentTitle } from "~/components/DocumentTitle";
import { Panel } from "~/components/Panel";
import { Waiting } from "~/components/Waiting";
import { CARD_POLL_INTERVAL_MS, CARD_POLL_LIMIT, parseAttempt, waitOutcome } from "~/domain/onboarding";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { profileComplete } from "~/.server/services/accounts";
import { hasCardInTheMaking, settleCardRequests } from "~/.server/services/card-creation";
import { listCards } from "~/.server/services/cards";
import { internalRedirect } from "~/routes/+shared/redirects.server";
import { failedTo } from "~/routes/+shared/load-failure.server";

/**
 * Onboarding step 2 (spec 001 §2.3, §4): waits for the card the issuer is making. Each look is a
 * page load with its count in the URL: JavaScript moves on every 4 s, and without JavaScript the
 * page refreshes itself every 20 s, with a link to look now (`Waiting`, decision 0067). The card found:
 * "Tout est prêt"; more than 3 looks without it: back to step 0.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db, issuer, messenger, push } = await getPlatform();
  if (!profileComplete(account)) throw internalRedirect("/onboarding");
  // A write on GET, on purpose: an idempotent sync with the issuer. It records a card the issuer has
  // finished (its own state, not the person's choice), once: the request moves from "submitted" to
  // "issued" in the same transaction that inserts the card, guarded by `status = submitted`, so a
  // reload, a prefetch or two polls at once record nothing more (settleCardRequest, card-creation.ts).
  await settleCardRequests(db, issuer, account.id, { messenger, push });
  // Spec 001 §8 "onboarding.failedCardFetch": said by the onboarding layout's boundary, with a way to look again.
  const [cards, cardInTheMaking] = await Promise.all([
    listCards(db, account.id),
    hasCardInTheMaking(db, account.id),
  ]).catch(failedTo("onboarding.failedCardFetch"));
  const attempt = parseAttempt(new URL(request.url).searchParams.get("attempt"));
  const outcome = waitOutcome({ hasCard: cards.length > 0, cardInTheMaking, attempt });
  if (outcome === "failed")
    throw await redirectWithFlash(request, "/onboarding", { kind: "error", message: "onboarding.wait.failed" });
  if (outcome === "nothingAsked") throw internalRedirect("/onboarding/card");
  return { ready: outcome === "ready", attempt };
}

export default function OnboardingWait({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { ready, attempt } = loaderData;
  const next = `${href("/onboarding/wait")}?attempt=${attempt + 1}`;

  if (ready) {
    return (
      <Panel id="ready" title={t("onboarding.wait.readyTitle")} closeTo="/cards">
        <p>{t("onboarding.wait.readyText")}</p>
        <p>
          <Link to="/cards" className="button">
            {t("onboarding.wait.readyButton")}
          </Link>
        </p>
      </Panel>
    );
  }
  return (
    <section aria-labelledby="wait-title">
      <DocumentTitle page={t("onboarding.wait.title")} />
      <h2 id="wait-title">{t("onboarding.wait.title")}</h2>
      <p>{t("onboarding.wait.text")}</p>
      <Waiting seconds={CARD_POLL_INTERVAL_MS / 1000} checkNowTo={next}>
        <p className="wait-progress">
          <span className="spinner" aria-hidden="true" />
          {attempt > 0 ? t("onboarding.wait.progress", { attempt, max: CARD_POLL_LIMIT + 1 }) : null}
        </p>
      </Waiting>
    </section>
  );
}
