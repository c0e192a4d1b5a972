import { Suspense } from "react";
import { href } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/card";
import { CardWizard, preloadCardWizard } from "~/components/CardWizardPart";
import { wizardInvalid } from "~/routes/cards/wizard";
import { DocumentTitle } from "~/components/DocumentTitle";
import { accountContext } from "~/routes/+shared/auth.server";
import { cardWizardAction, cardWizardLoaderData, type WizardRoutes } from "~/routes/cards/wizard.server";
import { getPlatform } from "~/.server/platform";
import { profileComplete, type Account } from "~/.server/services/accounts";
import { hasCardInTheMaking } from "~/.server/services/card-creation";
import { listCards } from "~/.server/services/cards";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";
import { failedTo } from "~/routes/+shared/load-failure.server";

preloadCardWizard();

/** Onboarding step 1: the card wizard (spec 001 §2.3); straight to /cards when a card exists. */
async function guard(account: Account) {
  const { db } = await getPlatform();
  if (!profileComplete(account)) throw internalRedirect("/onboarding");
  // Spec 001 §8: cards that cannot be read are said by the onboarding layout's boundary.
  const [cards, cardInTheMaking] = await Promise.all([
    listCards(db, account.id),
    hasCardInTheMaking(db, account.id),
  ]).catch(failedTo("onboarding.failedCardFetch"));
  if (cards.length > 0) throw internalRedirect("/cards");
  if (cardInTheMaking) throw internalRedirect("/onboarding/wait");
}

const ROUTES: WizardRoutes = {
  step: (step, request) => internalPath("/onboarding/card", {}, { search: { step, request } }),
  created: () => "/onboarding/wait",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  await guard(account);
  return cardWizardLoaderData(request, account.id, ROUTES);
}

export async function action({ request, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  await guard(account);
  return cardWizardAction(request, account.id, ROUTES);
}

export default function OnboardingCard({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const invalid = wizardInvalid(loaderData, actionData);
  return (
    <section aria-labelledby="onboarding-card-title" className="onboarding-card">
      <DocumentTitle page={t("onboarding.card.title")} error={invalid} />
      <h2 id="onboarding-card-title">{t("onboarding.card.title")}</h2>
      <p>{t("onboarding.card.intro")}</p>
      <Suspense>
        <CardWizard view={loaderData} actionData={actionData} base={href("/onboarding/card")} />
      </Suspense>
    </section>
  );
}
