import { getFormProps } from "~/components/forms/useForm";
import type { z } from "zod";
import { useTranslation } from "~/i18n";
import { Form, href, Link } from "react-router";
import type { Route } from "./+types/unlock-pin";
import { ErrorSummary, NewSecretPair, RequiredNote, useForm } from "~/components/forms";
import { Panel } from "~/components/Panel";
import { newPinSchema } from "~/domain/schemas";
import { accountContext } from "~/routes/+shared/auth.server";
import { requireActiveCard } from "~/routes/+shared/guards.server";
import { getPlatform } from "~/.server/platform";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { chooseNewPin } from "~/.server/services/card-actions";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";
import { canUnlockPin } from "~/domain/delivery";

type NewPinForm = z.input<typeof newPinSchema>;

/** Unlock a PIN blocked after 3 wrong entries by choosing a new one (spec 000 §4, §7 "Update PIN"). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const card = await requireActiveCard(request, context, params.cardId);
  // The menu's rule (issue 30 §1): a physical card, delivered, whose PIN the issuer lets change.
  if (!canUnlockPin(card)) throw internalRedirect(internalPath("/cards/:cardId", { cardId: card.id }));
  return { cardId: card.id };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const card = await requireActiveCard(request, context, params.cardId);
  if (!canUnlockPin(card)) throw internalRedirect(internalPath("/cards/:cardId", { cardId: card.id }));
  const submission = parseForm(await request.formData(), newPinSchema);
  // PINs are never sent back to the browser, even a wrong one: only the messages are.
  if (submission.status !== "success") return refuse(submission, { hideFields: ["pin", "confirmation"] });
  const { db, issuer } = await getPlatform();
  const result = await chooseNewPin(db, issuer, context.get(accountContext).id, card.id, submission.value.pin);
  const ok = result.kind === "ok";
  return redirectWithFlash(request, internalPath("/cards/:cardId", { cardId: card.id }), {
    kind: ok ? "success" : "error",
    message: ok ? "cards.pin.unlock.success" : "cards.pin.unlock.failed",
  });
}

export default function UnlockPinPanel({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  // Validated on the server (decision 0008); conform shows its answer, with or without JS.
  const [form, fields] = useForm<NewPinForm>({ id: "unlock-pin", lastResult: actionData });
  const invalid = Boolean(fields.pin.errors ?? fields.confirmation.errors);
  return (
    <Panel
      id="unlock-pin"
      title={t("cards.pin.unlock.title")}
      closeTo={href("/cards/:cardId", { cardId: loaderData.cardId })}
      error={invalid}
    >
      <ErrorSummary form={form} fields={[fields.pin, fields.confirmation]} />
      <p>{t("cards.pin.unlock.intro")}</p>
      <Form method="post" {...getFormProps(form)} noValidate preventScrollReset>
        <RequiredNote />
        <NewSecretPair
          kind="pin"
          secret={fields.pin}
          confirmation={fields.confirmation}
          label={t("cards.pin.unlock.pin")}
          hint={t("cards.pin.unlock.pinHint")}
          confirmationLabel={t("cards.pin.unlock.confirmation")}
        />
        <div className="actions">
          <button type="submit" className="button">
            {t("cards.pin.unlock.submit")}
          </button>
          <Link to={href("/cards/:cardId", { cardId: loaderData.cardId })} className="link-action">
            {t("cards.freeze.cancel")}
          </Link>
        </div>
      </Form>
    </Panel>
  );
}
