import { href, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/overflow-new-card";
import { Panel } from "~/components/Panel";
import { StripeCardSetup } from "~/components/StripeCardSetup";
import { accountContext } from "~/routes/+shared/auth.server";
import { requireOwnCard } from "~/routes/+shared/guards.server";
import { getPlatform } from "~/.server/platform";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { shownFromThisSite } from "~/routes/+shared/same-site.server";
import { completeCreditCardSetup, startCreditCardSetup } from "~/.server/services/credit-cards";

/**
 * Add a credit card (spec 000 §2 "Add credit card panel", §4): the number, expiry and CVC are typed
 * into the payment processor's own fields — the sandbox processor's document in an iframe (works
 * without JS), or Stripe Elements. The processor then sends the person back here with `?setup=`:
 * the list is read again (up to 3 times) and the panel closes with the outcome.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const card = await requireOwnCard(request, context, params.cardId);
  const account = context.get(accountContext);
  const { db, payments, env } = await getPlatform();
  const url = new URL(request.url);
  const overflow = internalPath("/cards/:cardId/overflow", { cardId: card.id });
  const setupRef = url.searchParams.get("setup") ?? url.searchParams.get("setup_intent");
  if (setupRef) {
    const outcome = await completeCreditCardSetup(db, payments, account.id, setupRef.slice(0, 100));
    const messages = {
      added: ["success", "cards.addCreditCard.added"],
      verifying: ["success", "cards.addCreditCard.verifying"],
      failed: ["error", "cards.addCreditCard.failed"],
      notFound: ["error", "cards.addCreditCard.failed"],
      processorFailed: ["error", "cards.addCreditCard.unavailable"],
    } as const;
    const [kind, message] = messages[outcome];
    throw await redirectWithFlash(request, overflow, { kind, message });
  }
  // The processor's answer above comes from its site by nature (an idempotent sync of what it holds); starting a
  // setup there does not: a link from another site goes to the overflow panel, whose "add" link is this site's
  // (decision 0048).
  if (!shownFromThisSite(request)) throw internalRedirect(overflow);
  const setup = await startCreditCardSetup(
    db,
    payments,
    account,
    href("/cards/:cardId/overflow/new-card", { cardId: card.id }),
  );
  if (setup === "processorFailed")
    throw await redirectWithFlash(request, overflow, { kind: "error", message: "cards.addCreditCard.unavailable" });
  return { cardId: card.id, setup, sandbox: env.sandbox };
}

export default function AddCreditCardPanel({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { cardId, setup, sandbox } = loaderData;
  const overflow = href("/cards/:cardId/overflow", { cardId });
  return (
    <Panel id="add-credit-card" title={t("cards.addCreditCard.title")} closeTo={overflow}>
      <p>{t("cards.addCreditCard.intro")}</p>
      {sandbox ? <p className="hint">{t("cards.addCreditCard.testCards")}</p> : null}
      {setup.kind === "hosted-fields" ? (
        <iframe className="processor-frame" src={setup.url} title={t("cards.addCreditCard.frameTitle")} />
      ) : (
        <StripeCardSetup
          clientSecret={setup.clientSecret}
          publishableKey={setup.publishableKey}
          returnTo={href("/cards/:cardId/overflow/new-card", { cardId })}
        />
      )}
      <p>
        <Link to={overflow} className="link-action" preventScrollReset>
          {t("cards.addCreditCard.back")}
        </Link>
      </p>
    </Panel>
  );
}
