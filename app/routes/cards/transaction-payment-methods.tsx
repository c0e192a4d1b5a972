import { Form, Link } from "react-router";
import type { Route } from "./+types/transaction-payment-methods";
import { ErrorSummary, type SummaryError } from "~/components/ErrorSummary";
import { PageHeader } from "~/components/PageHeader";
import { TransactionSummary } from "~/components/TransactionSummary";
import { TextField } from "~/components/TextField";
import { formatCents } from "~/domain/money";
import { useTranslation } from "~/i18n";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { internalPath } from "~/routes/+shared/redirects.server";
import { badRequest, redirectWithFlash } from "~/routes/+shared/request.server";
import { getSwitchableTransaction, switchPaymentMethods } from "~/.server/services/payment-methods";

/**
 * Switch a transaction's payment methods (spec 000 §5 "Payment-method selection"): one amount per
 * wallet of the card, adding up to the transaction. A page of its own, validated on the server.
 */
async function requireSwitchable(request: Request, context: Route.LoaderArgs["context"], params: Route.LoaderArgs["params"]) {
  const { db } = await getPlatform();
  const userId = context.get(accountContext).id;
  const transaction = await getSwitchableTransaction(db, userId, params.cardId, params.authorizationId);
  if (!transaction) throw await redirectWithFlash(request, "/cards", { kind: "error", message: "cards.switch.notAllowed" });
  return { db, userId, transaction };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { transaction } = await requireSwitchable(request, context, params);
  return { transaction };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db, userId, transaction } = await requireSwitchable(request, context, params);
  const form = await request.formData();
  const typed = Object.fromEntries(transaction.wallets.map((w) => [w.id, String(form.get(`amount-${w.id}`) ?? "")]));
  const result = await switchPaymentMethods(db, userId, transaction.cardId, transaction.id, typed);
  if (result.kind === "invalid") return badRequest({ errors: result.errors, total: result.total, typed });
  if (result.kind === "notFound") return redirectWithFlash(request, internalPath("/cards/:cardId", { cardId: transaction.cardId }), { kind: "error", message: "cards.switch.notAllowed" });
  return redirectWithFlash(request, internalPath("/cards/:cardId", { cardId: transaction.cardId }), { kind: "success", message: "cards.switch.done" });
}

export default function SwitchPaymentMethods({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { transaction } = loaderData;
  const errors: Record<string, string> = actionData?.errors ?? {};
  const summary: SummaryError[] = Object.entries(errors)
    .filter(([field]) => field !== "form")
    .map(([field, message]) => ({ fieldId: `amount-${field}`, message }));
  const invalid = Object.keys(errors).length > 0;
  return (
    <div className="narrow">
      <PageHeader title={t("cards.switch.title")} error={invalid} />
      {/* The total's error is about the amounts together: its link goes to their fieldset (issue 13, finding 9). */}
      <ErrorSummary errors={errors.form ? [{ fieldId: "switch-amounts", message: errors.form }, ...summary] : summary} />
      <TransactionSummary merchant={transaction.merchantName} transactionAt={transaction.transactionAt} amount={transaction.amount} />
      {transaction.wallets.length === 0 ? (
        <p className="alert alert--warning">{t("cards.switch.noWallet")}</p>
      ) : (
        <Form method="post" noValidate>
          <fieldset
            className={`fieldset${errors.form ? " field--error" : ""}`}
            id="switch-amounts"
            aria-invalid={errors.form ? true : undefined}
            aria-describedby={errors.form ? "switch-total-error" : undefined}
          >
            <legend>{t("cards.switch.legend", { amount: formatCents(transaction.amount) })}</legend>
            {errors.form ? (
              <p className="field__error" id="switch-total-error">
                <span className="visually-hidden">{t("errors.prefix")}</span>
                {t(errors.form)}
                {actionData && actionData.total !== null ? ` — ${t("cards.switch.totalChosen", { total: formatCents(actionData.total), amount: formatCents(transaction.amount) })}` : null}
              </p>
            ) : null}
            {transaction.wallets.map((w) => (
              <TextField
                key={w.id}
                id={`amount-${w.id}`}
                name={`amount-${w.id}`}
                label={t("cards.switch.amountFor", { wallet: w.name })}
                hint={t("cards.switch.atMost", { amount: formatCents(w.selectable) })}
                error={errors[w.id]}
                defaultValue={actionData?.typed[w.id] ?? ""}
                inputMode="decimal"
                autoComplete="off"
              />
            ))}
          </fieldset>
          {actionData && actionData.total !== null && !errors.form ? (
            <p className="hint">{t("cards.switch.totalChosen", { total: formatCents(actionData.total), amount: formatCents(transaction.amount) })}</p>
          ) : null}
          <div className="actions">
            <button type="submit" className="button">
              {t("cards.switch.submit")}
            </button>
            <Link to={`/cards/${transaction.cardId}`} className="link-action">
              {t("cards.report.back")}
            </Link>
          </div>
        </Form>
      )}
    </div>
  );
}
