import { getFormProps } from "~/components/forms/useForm";
import { useTranslation } from "~/i18n";
import { Form, href, Link } from "react-router";
import type { Route } from "./+types/stop";
import { choiceTarget, ErrorSummary, Radios, useForm } from "~/components/forms";
import { Panel } from "~/components/Panel";
import { stopCardSchema, type StopCardForm } from "~/domain/schemas";
import { accountContext } from "~/routes/+shared/auth.server";
import { requireOwnCard } from "~/routes/+shared/guards.server";
import { getPlatform } from "~/.server/platform";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { blockCard } from "~/.server/services/card-actions";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";

const stopPage = (cardId: string, done: boolean) =>
  internalPath("/cards/:cardId/stop", { cardId }, done ? { search: { done: "1" } } : {});

/**
 * Block a card for good: the reason first, then a confirmation that stays until the person moves on
 * with "Aller à mes cartes" (spec 000 §2, §4; RGAA 13.1 over the spec's "after 2 seconds").
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const card = await requireOwnCard(request, context, params.cardId);
  const done = new URL(request.url).searchParams.get("done") === "1";
  if (card.status === "blocked" && !done) throw internalRedirect(stopPage(card.id, true));
  if (card.status !== "blocked" && done) throw internalRedirect(stopPage(card.id, false));
  return { cardId: card.id, type: card.type, lastFour: card.lastFour, done };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const card = await requireOwnCard(request, context, params.cardId);
  const submission = parseForm(await request.formData(), stopCardSchema);
  if (submission.status !== "success") return refuse(submission);
  const { db, issuer } = await getPlatform();
  const result = await blockCard(db, issuer, context.get(accountContext).id, card.id, submission.value.reason);
  if (result.kind === "ok" || result.kind === "blocked") return internalRedirect(stopPage(card.id, true));
  return redirectWithFlash(request, internalPath("/cards/:cardId", { cardId: card.id }), {
    kind: "error",
    message: "cards.actions.blockFail",
  });
}

/*
 * The confirmation stays where it is, with no meta refresh and no timer (WCAG 2.2.1, failure F40),
 * rather than a redirect to /cards at once with the message there: here the message is read in the
 * panel the person is in, under a title that says the new state ("Carte bloquée"), and focus stays
 * in that panel; moving to another page first would put focus on that page's heading and leave the
 * confirmation to a live region announced (or not) among a whole new page. The person goes on with
 * the link, when they have read it.
 */
function Done({ cardName }: { cardName: string }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="alert alert--success" role="status">
        <p>{t("cards.actions.blockSuccess", { card: cardName })}</p>
      </div>
      <p>
        <Link to="/cards" replace className="button">
          {t("cards.stop.goNow")}
        </Link>
      </p>
    </>
  );
}

export default function StopPanel({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { cardId, done } = loaderData;
  const label = t(loaderData.type === "virtual" ? "nav.virtualCard" : "nav.physicalCard", {
    lastFour: loaderData.lastFour,
  });
  // Inside a sentence: "Bloquer la carte virtuelle •••• 7777…"
  const cardName = label.charAt(0).toLowerCase() + label.slice(1);
  const [form, fields] = useForm<StopCardForm>({
    id: "stop",
    lastResult: actionData,
  });
  const error = fields.reason.errors?.[0];
  const reasons = (["lost", "stolen"] as const).map((reason) => ({ value: reason, label: t(`cards.stop.${reason}`) }));
  const title = done ? t("cards.stop.doneTitle") : t("cards.stop.title");
  return (
    <Panel
      id="stop"
      title={title}
      closeTo={done ? "/cards" : href("/cards/:cardId", { cardId })}
      error={Boolean(error)}
    >
      {done ? (
        <Done cardName={cardName} />
      ) : (
        <>
          <ErrorSummary form={form} fields={[{ field: fields.reason, target: choiceTarget(fields.reason, reasons) }]} />
          <p>{t("cards.stop.intro", { card: cardName })}</p>
          <Form method="post" {...getFormProps(form)} noValidate preventScrollReset>
            <Radios
              required
              field={fields.reason}
              legend={t("cards.stop.legend")}
              hint={t("cards.stop.hint")}
              options={reasons}
            />
            <div className="actions">
              <button type="submit" className="button button--danger">
                {t("cards.stop.submit")}
              </button>
              <Link to={href("/cards/:cardId", { cardId })} className="link-action">
                {t("cards.stop.cancel")}
              </Link>
            </div>
          </Form>
        </>
      )}
    </Panel>
  );
}
