import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "react-router";
import type { Route } from "./+types/transaction-report";
import { ErrorSummary } from "~/components/ErrorSummary";
import { PageHeader } from "~/components/PageHeader";
import { TransactionSummary } from "~/components/TransactionSummary";
import { TextAreaField } from "~/components/TextField";
import { problemReportSchema, type ProblemReportForm } from "~/domain/schemas";
import { useTranslation } from "~/i18n";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { internalPath } from "~/routes/+shared/redirects.server";
import { badRequest, redirectWithFlash } from "~/routes/+shared/request.server";
import { getReportableTransaction, reportProblem } from "~/.server/services/transactions";

/**
 * Report a problem on an approved or declined transaction (spec 000 §2 side panels, §5). A page of its
 * own, so it works without JavaScript. Unknown, foreign or pending (frozen) transactions, or a card id
 * that is not the transaction's, go back to /cards with a message, never hinting whether the id exists.
 */
async function requireReportable(request: Request, context: Route.LoaderArgs["context"], params: Route.LoaderArgs["params"]) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const transaction = await getReportableTransaction(db, account.id, params.authorizationId);
  if (!transaction || transaction.cardId !== params.cardId) throw await notFound(request);
  return { transaction, userId: account.id, db };
}

const notFound = (request: Request) => redirectWithFlash(request, "/cards", { kind: "error", message: "cards.report.notFound" });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { transaction } = await requireReportable(request, context, params);
  return {
    cardId: transaction.cardId,
    transaction: {
      merchantName: transaction.merchantName,
      merchantCity: transaction.merchantCity,
      transactionAt: transaction.transactionAt,
      amount: transaction.amount,
    },
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { transaction, userId, db } = await requireReportable(request, context, params);
  const submission = parseWithZod(await request.formData(), { schema: problemReportSchema });
  if (submission.status !== "success") return badRequest({ lastResult: submission.reply() });
  const result = await reportProblem(db, userId, transaction.id, submission.value.message);
  if (result === "not_found") throw await notFound(request);
  if (result !== "ok") {
    return badRequest({ lastResult: submission.reply({ fieldErrors: { message: [result === "too_long" ? "errors.reportTooLong" : "errors.reportTooShort"] } }) });
  }
  return redirectWithFlash(request, internalPath("/cards/:cardId", { cardId: transaction.cardId }), { kind: "success", message: "cards.report.sent" });
}

export default function ReportProblem({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { cardId, transaction } = loaderData;
  // Validated on the server (docs/decisions/0008); conform shows its answer, with or without JS.
  const [form, fields] = useForm<ProblemReportForm>({ id: "report", lastResult: actionData?.lastResult });
  const error = fields.message.errors?.[0];
  const { key: messageKey, ...messageProps } = getTextareaProps(fields.message, { ariaAttributes: false });
  return (
    <div className="narrow">
      <PageHeader title={t("cards.report.title")} error={Boolean(error)} />
      <ErrorSummary errors={error ? [{ fieldId: fields.message.id, message: error }] : []} />
      <TransactionSummary merchant={`${transaction.merchantName}, ${transaction.merchantCity}`} transactionAt={transaction.transactionAt} amount={transaction.amount} />
      <Form method="post" {...getFormProps(form)} noValidate>
        <TextAreaField required
          key={messageKey}
          id={fields.message.id}
          name={fields.message.name}
          label={t("cards.report.message")}
          hint={t("cards.report.hint")}
          error={error}
          defaultValue={messageProps.defaultValue}
          rows={6}
        />
        <div className="actions">
          <button type="submit" className="button">
            {t("cards.report.submit")}
          </button>
          <Link to={`/cards/${cardId}`} className="link-action">
            {t("cards.report.back")}
          </Link>
        </div>
      </Form>
    </div>
  );
}
