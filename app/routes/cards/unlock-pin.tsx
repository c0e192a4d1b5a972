import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "~/i18n";
import { Form, Link } from "react-router";
import type { Route } from "./+types/unlock-pin";
import { ErrorSummary, type SummaryError } from "~/components/ErrorSummary";
import { Panel } from "~/components/Panel";
import { RequiredNote, TextField } from "~/components/TextField";
import { newPinSchema } from "~/domain/schemas";
import { accountContext } from "~/routes/+shared/auth.server";
import { requireActiveCard } from "~/routes/+shared/guards.server";
import { getPlatform } from "~/.server/platform";
import { badRequest, redirectWithFlash } from "~/routes/+shared/request.server";
import { chooseNewPin } from "~/.server/services/card-actions";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";

/** Unlock a PIN blocked after 3 wrong entries by choosing a new one (spec 000 §4, §7 "Update PIN"). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const card = await requireActiveCard(request, context, params.cardId);
  if (!card.pinCanUpdate) throw internalRedirect(internalPath("/cards/:cardId", { cardId: card.id }));
  return { cardId: card.id };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const card = await requireActiveCard(request, context, params.cardId);
  const submission = parseWithZod(await request.formData(), { schema: newPinSchema });
  // PINs are never sent back to the browser, even a wrong one: only the messages are. A plain form
  // (no conform) so that nothing can rewrite the fields after the answer is shown.
  if (submission.status !== "success") {
    const errors = submission.error ?? {};
    return badRequest({ errors: { pin: errors.pin?.[0], confirmation: errors.confirmation?.[0] }, attempt: crypto.randomUUID() });
  }
  const { db, issuer } = await getPlatform();
  const result = await chooseNewPin(db, issuer, context.get(accountContext).id, card.id, submission.value.pin);
  const ok = result === "ok";
  return redirectWithFlash(request, internalPath("/cards/:cardId", { cardId: card.id }), { kind: ok ? "success" : "error", message: ok ? "cards.pin.unlock.success" : "cards.pin.unlock.failed" });
}

export default function UnlockPinPanel({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const pinError = actionData?.errors.pin;
  const confirmationError = actionData?.errors.confirmation;
  const errors: SummaryError[] = [
    ...(pinError ? [{ fieldId: "unlock-pin-pin", message: pinError }] : []),
    ...(confirmationError ? [{ fieldId: "unlock-pin-confirmation", message: confirmationError }] : []),
  ];
  const attempt = actionData?.attempt ?? "";
  return (
    <Panel id="unlock-pin" title={t("cards.pin.unlock.title")} closeTo={`/cards/${loaderData.cardId}`} error={errors.length > 0}>
      <ErrorSummary errors={errors} />
      <p>{t("cards.pin.unlock.intro")}</p>
      <Form method="post" id="unlock-pin" noValidate preventScrollReset>
        <RequiredNote />
        <TextField required
          id="unlock-pin-pin"
          name="pin"
          key={`pin-${attempt}`}
          label={t("cards.pin.unlock.pin")}
          hint={t("cards.pin.unlock.pinHint")}
          error={pinError}
          type="password"
          inputMode="numeric"
          autoComplete="off"
          className="input--code"
        />
        <TextField required
          id="unlock-pin-confirmation"
          name="confirmation"
          key={`confirmation-${attempt}`}
          label={t("cards.pin.unlock.confirmation")}
          error={confirmationError}
          type="password"
          inputMode="numeric"
          autoComplete="off"
          className="input--code"
        />
        <div className="actions">
          <button type="submit" className="button">
            {t("cards.pin.unlock.submit")}
          </button>
          <Link to={`/cards/${loaderData.cardId}`} className="link-action">
            {t("cards.freeze.cancel")}
          </Link>
        </div>
      </Form>
    </Panel>
  );
}
