import { getFormProps } from "~/components/forms/useForm";
import { useEffect, useRef, useState } from "react";
import { z } from "zod";
import { data, Form, href, Link, useFetcher } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/overflow";
import { ErrorSummary, type FieldMeta, useForm } from "~/components/forms";
import { Panel } from "~/components/Panel";
import { useHydrated } from "~/components/useHydrated";
import { formatCents } from "~/domain/money";
import { OVERFLOW_MAX_EUROS, OVERFLOW_MIN_EUROS } from "~/domain/overflow";
import { OVERFLOW_MINIMUM } from "~/domain/authorisation";
import { overflowAmountSchema } from "~/domain/schemas";
import { accountContext } from "~/routes/+shared/auth.server";
import { requireOwnCard } from "~/routes/+shared/guards.server";
import { getPlatform } from "~/.server/platform";
import { internalPath } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { intents } from "~/routes/+shared/intents";
import { intentOf } from "~/routes/+shared/intents.server";
import {
  deleteCreditCard,
  listCreditCards,
  setDefaultCreditCard,
  syncCreditCards,
} from "~/.server/services/credit-cards";
import { overflowAmount, setOverflowAmount } from "~/.server/services/overflow";

/**
 * Balance overflow (spec 000 §2 "Balance overflow panel", §4): the amount a saved credit card may add
 * when the wallets run short, and the saved cards (default switch, delete with confirmation).
 * Without JS: a number field and a save button; with JS, a slider too, saved 1.5 s after the last change.
 */
const AUTOSAVE_MS = 1500;

const INTENT = intents("amount", "default", "undefault", "delete");

/** The saved card a default switch or a deletion is about. */
const creditCardSchema = z.object({ creditCard: z.string({ error: "errors.creditCardNotFound" }).max(100) });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const card = await requireOwnCard(request, context, params.cardId);
  const userId = context.get(accountContext).id;
  const { db, payments, logger } = await getPlatform();
  // Cards saved since the last look (one still under verification, say) join the list. A write on GET,
  // on purpose: an idempotent sync of the processor's list. It only inserts cards the processor holds
  // and the list lacks, each once (unique processor_ref, conflicts ignored): a second look adds nothing.
  let listFailed = false;
  try {
    await syncCreditCards(db, payments, userId);
  } catch (err) {
    listFailed = true;
    logger.warn("credit card list refresh failed", { error: String(err) });
  }
  const [amount, creditCards] = await Promise.all([overflowAmount(db, userId), listCreditCards(db, userId)]);
  const deleteId = new URL(request.url).searchParams.get("delete");
  const toDelete = creditCards.find((c) => c.id === deleteId) ?? null;
  return data(
    { cardId: card.id, amount, creditCards, toDelete, listFailed },
    { status: deleteId && !toDelete ? 400 : 200 },
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const card = await requireOwnCard(request, context, params.cardId);
  const userId = context.get(accountContext).id;
  const { db, payments } = await getPlatform();
  const form = await request.formData();
  const back = internalPath("/cards/:cardId/overflow", { cardId: card.id });
  const flash = (kind: "success" | "error", message: string) => redirectWithFlash(request, back, { kind, message });

  const intent = intentOf(form, INTENT);
  switch (intent) {
    case INTENT.amount: {
      const submission = parseForm(form, overflowAmountSchema);
      if (submission.status !== "success") return refuse(submission);
      await setOverflowAmount(db, userId, submission.value.amount);
      // The slider's autosave (JS) wants an answer in place, not a new page.
      if (form.get("autosave") === "1") return { saved: submission.value.amount };
      return flash("success", "cards.overflow.setOverflowSuccess");
    }
    case INTENT.default:
    case INTENT.undefault: {
      const submission = parseForm(form, creditCardSchema);
      const result =
        submission.status === "success"
          ? await setDefaultCreditCard(db, userId, submission.value.creditCard, intent === INTENT.default)
          : null;
      if (result?.kind !== "ok") return refuse(submission, { formErrors: ["errors.creditCardNotFound"] });
      return flash("success", intent === INTENT.default ? "cards.overflow.defaultSet" : "cards.overflow.defaultUnset");
    }
    case INTENT.delete: {
      const submission = parseForm(form, creditCardSchema);
      const result =
        submission.status === "success"
          ? await deleteCreditCard(db, payments, userId, submission.value.creditCard)
          : null;
      if (!result || result.kind === "notFound")
        return refuse(submission, { formErrors: ["errors.creditCardNotFound"] });
      return result.kind === "ok"
        ? flash("success", "cards.overflow.deleted")
        : flash("error", "cards.overflow.deleteFailed");
    }
  }
}

type CreditCard = Route.ComponentProps["loaderData"]["creditCards"][number];

function brandName(brand: string): string {
  return { visa: "Visa", mastercard: "Mastercard", amex: "American Express" }[brand] ?? brand;
}

/** The number field always; with JS a slider beside it, and the save button gives way to autosave. */
function AmountForm({
  amount,
  field,
  formProps,
}: {
  amount: number;
  field: FieldMeta;
  formProps: ReturnType<typeof getFormProps>;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const fetcher = useFetcher<typeof action>();
  const [value, setValue] = useState(String(amount));
  const timer = useRef<number | undefined>(undefined);
  const saved = fetcher.data && "saved" in fetcher.data ? fetcher.data.saved : null;
  // A refused autosave answers like any refused form: conform's reply, its error by field.
  const autosaveError = fetcher.data && "error" in fetcher.data ? fetcher.data.error?.amount?.[0] : undefined;
  const shownError = autosaveError ?? field.errors?.[0];
  const typed = typeof field.initialValue === "string" ? field.initialValue : undefined;
  const hintId = `${field.id}-hint`;

  useEffect(() => () => window.clearTimeout(timer.current), []);
  const change = (next: string) => {
    setValue(next);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      void fetcher.submit({ intent: "amount", amount: next, autosave: "1" }, { method: "post" });
    }, AUTOSAVE_MS);
  };

  return (
    <Form method="post" {...formProps} className="overflow-amount" preventScrollReset noValidate>
      <input type="hidden" name="intent" value={INTENT.amount} />
      <div className={`field${shownError ? " field--error" : ""}`}>
        <label className="field__label" htmlFor={field.id}>
          {t("cards.overflow.amountLabel")}
        </label>
        <p className="field__hint" id={hintId}>
          {t("cards.overflow.amountHint")} {hydrated ? t("cards.overflow.autosaveHint") : null}
        </p>
        {shownError ? (
          <p className="field__error" id={field.errorId}>
            <span className="visually-hidden">{t("errors.prefix")}</span>
            {t(shownError)}
          </p>
        ) : null}
        <div className="overflow-amount__controls">
          {hydrated ? (
            <input
              type="range"
              className="overflow-amount__range"
              min={OVERFLOW_MIN_EUROS}
              max={OVERFLOW_MAX_EUROS}
              step={1}
              value={Number(value) || OVERFLOW_MIN_EUROS}
              aria-label={t("cards.overflow.rangeLabel")}
              aria-valuetext={formatCents((Number(value) || OVERFLOW_MIN_EUROS) * 100)}
              onChange={(event) => change(event.currentTarget.value)}
            />
          ) : null}
          <input
            id={field.id}
            name={field.name}
            className="input overflow-amount__number"
            // Text, not number: no spinner that changes the amount on a wheel or arrow by mistake, and what
            // was typed comes back as typed to be corrected (issue 13, finding 11).
            type="text"
            inputMode="numeric"
            required
            {...(hydrated
              ? { value, onChange: (event: React.ChangeEvent<HTMLInputElement>) => change(event.currentTarget.value) }
              : { defaultValue: typed ?? String(amount) })}
            aria-invalid={shownError ? true : undefined}
            aria-describedby={shownError ? `${hintId} ${field.errorId}` : hintId}
          />
          <span aria-hidden="true">€</span>
        </div>
      </div>
      {hydrated ? (
        <p role="status" className="hint">
          {fetcher.state !== "idle"
            ? t("cards.overflow.saving")
            : saved !== null
              ? t("cards.overflow.savedStatus", { amount: formatCents(saved * 100) })
              : ""}
        </p>
      ) : (
        <button type="submit" className="button">
          {t("cards.overflow.save")}
        </button>
      )}
    </Form>
  );
}

function CreditCardRow({ cardId, creditCard }: { cardId: string; creditCard: CreditCard }) {
  const { t } = useTranslation();
  const label = t("cards.overflow.cardLabel", { brand: brandName(creditCard.brand), last4: creditCard.last4 });
  return (
    <li className="credit-card">
      <span className="credit-card__label">
        <strong>{label}</strong>
        <span className="hint">
          {" "}
          –{" "}
          {t("cards.overflow.expires", {
            month: String(creditCard.expMonth).padStart(2, "0"),
            year: creditCard.expYear,
          })}
        </span>
        {creditCard.isDefault ? <span className="badge">{t("cards.overflow.defaultBadge")}</span> : null}
      </span>
      <span className="credit-card__actions">
        <Form method="post" preventScrollReset>
          <input type="hidden" name="creditCard" value={creditCard.id} />
          <button
            type="submit"
            name="intent"
            value={creditCard.isDefault ? INTENT.undefault : INTENT.default}
            role="switch"
            aria-checked={creditCard.isDefault}
            className="switch"
          >
            <span className="switch__track" aria-hidden="true" />
            {t("cards.overflow.default")}
            <span className="visually-hidden"> : {label}</span>
          </button>
        </Form>
        <Link
          to={`${href("/cards/:cardId/overflow", { cardId })}?delete=${creditCard.id}`}
          className="link-action"
          preventScrollReset
        >
          {t("cards.overflow.delete")}
          <span className="visually-hidden"> {label}</span>
        </Link>
      </span>
    </li>
  );
}

export default function OverflowPanel({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { cardId, amount, creditCards, toDelete, listFailed } = loaderData;
  // Validated on the server (decision 0008); conform shows its answer, with or without JS.
  const [form, fields] = useForm<{ amount: string }>({
    id: "overflow",
    lastResult: actionData && "saved" in actionData ? undefined : actionData,
  });
  const amountError = fields.amount.errors?.[0];
  const formError = form.errors?.[0];
  const deleteLabel = toDelete
    ? t("cards.overflow.cardLabel", { brand: brandName(toDelete.brand), last4: toDelete.last4 })
    : "";
  return (
    <Panel
      id="overflow"
      title={t("cards.overflow.title")}
      closeTo={href("/cards/:cardId", { cardId })}
      error={Boolean(amountError || formError)}
    >
      {formError ? (
        <div className="alert alert--error" role="alert">
          <p>{t(formError)}</p>
        </div>
      ) : null}
      {/* The refused amount posted without JS: summarised like every form's errors (issue 13, finding 11). */}
      <ErrorSummary form={undefined} fields={[fields.amount]} />
      <p>{t("cards.overflow.intro", { minimum: formatCents(OVERFLOW_MINIMUM) })}</p>
      <AmountForm amount={amount} field={fields.amount} formProps={getFormProps(form)} />

      <h3 id="credit-cards-title">{t("cards.overflow.cardsTitle")}</h3>
      {listFailed ? (
        <div className="alert alert--warning" role="status">
          <p>{t("cards.overflow.listFailed")}</p>
        </div>
      ) : null}
      {toDelete ? (
        <div className="confirm-box" role="group" aria-labelledby="confirm-delete-title">
          <p id="confirm-delete-title">
            <strong>{t("cards.overflow.confirmDelete", { card: deleteLabel })}</strong>
          </p>
          {toDelete.isDefault ? <p>{t("cards.overflow.confirmDeleteDefault")}</p> : null}
          <Form method="post" preventScrollReset className="actions">
            <input type="hidden" name="creditCard" value={toDelete.id} />
            <button type="submit" name="intent" value={INTENT.delete} className="button button--danger">
              {t("cards.overflow.confirmDeleteButton")}
            </button>
            <Link to={href("/cards/:cardId/overflow", { cardId })} className="link-action" preventScrollReset>
              {t("cards.overflow.cancelDelete")}
            </Link>
          </Form>
        </div>
      ) : null}
      {creditCards.length === 0 ? (
        <p>{t("cards.overflow.noCards")}</p>
      ) : (
        <ul className="credit-cards" aria-labelledby="credit-cards-title">
          {creditCards.map((c) => (
            <CreditCardRow key={c.id} cardId={cardId} creditCard={c} />
          ))}
        </ul>
      )}
      <p>
        <Link
          to={href("/cards/:cardId/overflow/new-card", { cardId })}
          className="button button--secondary"
          preventScrollReset
        >
          {t("cards.overflow.add")}
        </Link>
      </p>
    </Panel>
  );
}
