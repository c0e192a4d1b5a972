import { Suspense } from "react";
import { href } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/new-card";
import { CardWizard, preloadCardWizard } from "~/components/CardWizardPart";
import { wizardInvalid } from "~/routes/cards/wizard";
import { Panel } from "~/components/Panel";
import { accountContext } from "~/routes/+shared/auth.server";
import { cardWizardAction, cardWizardLoaderData, type WizardRoutes } from "~/routes/cards/wizard.server";
import { requireOwnCard } from "~/routes/+shared/guards.server";
import { internalPath } from "~/routes/+shared/redirects.server";

preloadCardWizard();

/** Create a card from the card page (spec 000 §2 "Create card"): the wizard in a side panel. */
const routesFor = (cardId: string): WizardRoutes => ({
  step: (step, request) => internalPath("/cards/:cardId/new-card", { cardId }, { search: { step, request } }),
  // Panel closed, and the new card shown when it exists (spec 000 §4: "signals created and closes").
  created: (newCardId) => internalPath("/cards/:cardId", { cardId: newCardId ?? cardId }),
});

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const card = await requireOwnCard(request, context, params.cardId);
  return cardWizardLoaderData(request, context.get(accountContext).id, routesFor(card.id));
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const card = await requireOwnCard(request, context, params.cardId);
  return cardWizardAction(request, context.get(accountContext).id, routesFor(card.id));
}

export default function NewCardPanel({ loaderData, actionData, params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const card = href("/cards/:cardId", { cardId: params.cardId });
  const invalid = wizardInvalid(loaderData, actionData);
  return (
    <Panel id="new-card" title={t("cards.create.title")} closeTo={card} error={invalid}>
      <Suspense>
        <CardWizard
          view={loaderData}
          actionData={actionData}
          base={href("/cards/:cardId/new-card", { cardId: params.cardId })}
          cancelTo={card}
        />
      </Suspense>
    </Panel>
  );
}
