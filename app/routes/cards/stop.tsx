import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "~/i18n";
import { Form, Link } from "react-router";
import type { Route } from "./+types/stop";
import { ErrorSummary } from "~/components/ErrorSummary";
import { Panel } from "~/components/Panel";
import { stopCardSchema, type StopCardForm } from "~/domain/schemas";
import { accountContext } from "~/routes/+shared/auth.server";
import { requireOwnCard } from "~/routes/+shared/guards.server";
import { getPlatform } from "~/.server/platform";
import { badRequest, redirectWithFlash } from "~/routes/+shared/request.server";
import { blockCard } from "~/.server/services/card-actions";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";

const stopPage = (cardId: string, done: boolean) => internalPath("/cards/:cardId/stop", { cardId }, done ? { search: { done: "1" } } : {});

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
  const submission = parseWithZod(await request.formData(), { schema: stopCardSchema });
  if (submission.status !== "success") return badRequest({ lastResult: submission.reply() });
  const { db, issuer } = await getPlatform();
  const result = await blockCard(db, issuer, context.get(accountContext).id, card.id, submission.value.reason);
  if (result === "ok" || result === "blocked") return internalRedirect(stopPage(card.id, true));
  return redirectWithFlash(request, internalPath("/cards/:cardId", { cardId: card.id }), { kind: "error", message: "cards.actions.blockFail" });
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
  const label = t(loaderData.type === "virtual" ? "nav.virtualCard" : "nav.physicalCard", { lastFour: loaderData.lastFour });
  // Inside a sentence: "Bloquer la carte virtuelle •••• 7777…"
  const cardName = label.charAt(0).toLowerCase() + label.slice(1);
  const [form, fields] = useForm<StopCardForm>({
    id: "stop",
    lastResult: actionData?.lastResult,
  });
  const error = fields.reason.errors?.[0];
  const title = done ? t("cards.stop.doneTitle") : t("cards.stop.title");
  return (
    <Panel id="stop" title={title} closeTo={done ? "/cards" : `/cards/${cardId}`} error={Boolean(error)}>
      {done ? (
        <Done cardName={cardName} />
      ) : (
        <>
          <ErrorSummary errors={error ? [{ fieldId: `${fields.reason.id}-lost`, message: error }] : []} />
          <p>{t("cards.stop.intro", { card: cardName })}</p>
          <Form method="post" {...getFormProps(form)} noValidate preventScrollReset>
            {/* Hint and error both describe the group, which is marked invalid (issue 13, finding 11): not each radio,
                where aria-invalid is not a supported state (ARIA 1.3, jsx-a11y). */}
            <fieldset
              id={fields.reason.id}
              className={`radios${error ? " field--error" : ""}`}
              aria-describedby={error ? `stop-hint ${fields.reason.id}-error` : "stop-hint"}
              aria-invalid={error ? true : undefined}
            >
              <legend>{t("cards.stop.legend")}</legend>
              <p className="field__hint" id="stop-hint">
                {t("cards.stop.hint")}
              </p>
              {error ? (
                <p className="field__error" id={`${fields.reason.id}-error`}>
                  <span className="visually-hidden">{t("errors.prefix")}</span>
                  {t(error)}
                </p>
              ) : null}
              {(["lost", "stolen"] as const).map((reason) => (
                <label className="radio" key={reason}>
                  <input
                    type="radio"
                    name={fields.reason.name}
                    id={`${fields.reason.id}-${reason}`}
                    value={reason}
                    defaultChecked={fields.reason.initialValue === reason}
                    required
                  />
                  {t(`cards.stop.${reason}`)}
                </label>
              ))}
            </fieldset>
            <div className="actions">
              <button type="submit" className="button button--danger">
                {t("cards.stop.submit")}
              </button>
              <Link to={`/cards/${cardId}`} className="link-action">
                {t("cards.stop.cancel")}
              </Link>
            </div>
          </Form>
        </>
      )}
    </Panel>
  );
}
