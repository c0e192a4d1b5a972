import { getFormProps } from "~/components/forms/useForm";
import { Form, href, Link } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/transaction-payment-methods";
import { ErrorSummary, Field, useForm } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { TransactionSummary } from "~/components/TransactionSummary";
import { formatCents, parseEuros } from "~/domain/money";
import { type SplitError } from "~/domain/payment-methods";
import { useTranslation } from "~/i18n";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { internalPath } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { getSwitchableTransaction, switchPaymentMethods } from "~/.server/services/payment-methods";
import { refundOverflow } from "~/.server/services/card-payments";

/**
 * Switch a transaction's payment methods (spec 000 §5 "Payment-method selection"): one amount per
 * wallet of the card, adding up to the transaction. A page of its own, validated on the server.
 */
async function requireSwitchable(
  request: Request,
  context: Route.LoaderArgs["context"],
  params: Route.LoaderArgs["params"],
) {
  const { db } = await getPlatform();
  const userId = context.get(accountContext).id;
  const transaction = await getSwitchableTransaction(db, userId, params.cardId, params.authorizationId);
  if (!transaction)
    throw await redirectWithFlash(request, "/cards", { kind: "error", message: "cards.switch.notAllowed" });
  return { db, userId, transaction };
}

/** The amount field of a wallet. */
const amountField = (walletId: string) => `amount-${walletId}`;

/** What each refusal of the amounts says (spec 000 §5). */
const SPLIT_MESSAGES: Record<SplitError, string> = {
  amountFormat: "errors.switchAmountFormat",
  negative: "errors.switchNegative",
  tooMuch: "errors.switchTooMuch",
  empty: "errors.switchEmpty",
  total: "errors.switchTotal",
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { transaction } = await requireSwitchable(request, context, params);
  return { transaction };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db, userId, transaction } = await requireSwitchable(request, context, params);
  // One optional amount per wallet offered; the split itself is checked by the service (spec 000 §5).
  const schema = z.object(
    Object.fromEntries(transaction.wallets.map((w) => [amountField(w.id), z.string().max(20).optional()])),
  );
  const submission = parseForm(await request.formData(), schema);
  if (submission.status !== "success") return refuse(submission, { formErrors: ["errors.switchAmountFormat"] });
  const typed = Object.fromEntries(
    transaction.wallets.map((w) => [w.id, String(submission.value[amountField(w.id)] ?? "")]),
  );
  const result = await switchPaymentMethods(db, userId, transaction.cardId, transaction.id, typed);
  if (result.kind === "invalid") {
    const { form: formError, ...byWallet } = result.errors;
    return refuse(submission, {
      formErrors: formError ? [SPLIT_MESSAGES[formError]] : undefined,
      fieldErrors: Object.fromEntries(
        Object.entries(byWallet).map(([walletId, error]) => [amountField(walletId), [SPLIT_MESSAGES[error]]]),
      ),
    });
  }
  if (result.kind === "notFound")
    return redirectWithFlash(request, internalPath("/cards/:cardId", { cardId: transaction.cardId }), {
      kind: "error",
      message: "cards.switch.notAllowed",
    });
  // The money moved (decision 0038); an overflow already charged to the saved card is given back (a failure is
  // logged: the wallets' side stands, as for a capture).
  if (result.overflowToRefund > 0)
    await refundOverflow(await getPlatform(), transaction.id, result.overflowToRefund, `${transaction.id}:switch`);
  return redirectWithFlash(request, internalPath("/cards/:cardId", { cardId: transaction.cardId }), {
    kind: "success",
    message: "cards.switch.done",
  });
}

export default function SwitchPaymentMethods({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { transaction } = loaderData;
  // Validated on the server (decision 0008); conform shows its answer, with or without JS.
  const [form, fields] = useForm<Record<string, string>>({ id: "switch", lastResult: actionData });
  const amounts = transaction.wallets.map((w) => ({ wallet: w, field: fields[amountField(w.id)]! }));
  const formError = form.errors?.[0];
  // The total of what was typed, when every amount could be read (said beside a refused total).
  // conform's value: what the server sent back, or (with JS) what is typed now.
  const parsed = amounts.map(({ field }) => parseEuros(typeof field.value === "string" ? field.value : ""));
  const fieldInError = amounts.some(({ field }) => field.errors);
  const total =
    actionData && !fieldInError && parsed.every((c) => c !== null)
      ? parsed.reduce<number>((sum, c) => sum + (c ?? 0), 0)
      : null;
  const invalid = Boolean(formError) || fieldInError;
  const totalChosen =
    total !== null
      ? t("cards.switch.totalChosen", { total: formatCents(total), amount: formatCents(transaction.amount) })
      : null;
  return (
    <div className="narrow">
      <PageHeader title={t("cards.switch.title")} error={invalid} />
      {/* The total's error is about the amounts together: its link goes to their fieldset (issue 13, finding 9). */}
      <ErrorSummary form={form} fields={amounts.map(({ field }) => field)} formTarget="switch-amounts" />
      <TransactionSummary
        merchant={transaction.merchantName}
        transactionAt={transaction.transactionAt}
        amount={transaction.amount}
      />
      {transaction.wallets.length === 0 ? (
        <p className="alert alert--warning">{t("cards.switch.noWallet")}</p>
      ) : (
        <Form method="post" {...getFormProps(form)}>
          <fieldset
            className={`fieldset${formError ? " field--error" : ""}`}
            id="switch-amounts"
            aria-invalid={formError ? true : undefined}
            aria-describedby={formError ? "switch-total-error" : undefined}
          >
            <legend>{t("cards.switch.legend", { amount: formatCents(transaction.amount) })}</legend>
            {formError ? (
              <p className="field__error" id="switch-total-error">
                <span className="visually-hidden">{t("errors.prefix")}</span>
                {t(formError)}
                {totalChosen ? ` — ${totalChosen}` : null}
              </p>
            ) : null}
            {amounts.map(({ wallet, field }) => (
              <Field
                key={wallet.id}
                field={field}
                label={t("cards.switch.amountFor", { wallet: wallet.name })}
                hint={t("cards.switch.atMost", { amount: formatCents(wallet.selectable) })}
                inputMode="decimal"
                autoComplete="off"
              />
            ))}
          </fieldset>
          {totalChosen && !formError ? <p className="hint">{totalChosen}</p> : null}
          <div className="actions">
            <button type="submit" className="button">
              {t("cards.switch.submit")}
            </button>
            <Link to={href("/cards/:cardId", { cardId: transaction.cardId })} className="link-action">
              {t("cards.report.back")}
            </Link>
          </div>
        </Form>
      )}
    </div>
  );
}
