import { getFormProps } from "~/components/forms/useForm";
import { Form, href, Link } from "react-router";
import type { Route } from "./+types/transaction-report";
import { ErrorSummary, TextArea, useForm } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { TransactionSummary } from "~/components/TransactionSummary";
import { problemReportSchema, type ProblemReportForm } from "~/domain/schemas";
import { useTranslation } from "~/i18n";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { internalPath } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { getReportableTransaction, reportProblem } from "~/.server/services/transactions";

/**
 * Report a problem on an approved or declined transaction (spec 000 §2 side panels, §5). A page of its
 * own, so it works without JavaScript. Unknown, foreign or pending (frozen) transactions, or a card id
 * that is not the transaction's, go back to /cards with a message, never hinting whether the id exists.
 */
async function requireReportable(
  request: Request,
  context: Route.LoaderArgs["context"],
  params: Route.LoaderArgs["params"],
) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const transaction = await getReportableTransaction(db, account.id, params.authorizationId);
  if (!transaction || transaction.cardId !== params.cardId) throw await notFound(request);
  return { transaction, userId: account.id, db };
}

const notFound = (request: Request) =>
  redirectWithFlash(request, "/cards", { kind: "error", message: "cards.report.notFound" });

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
  const submission = parseForm(await request.formData(), problemReportSchema);
  if (submission.status !== "success") return refuse(submission);
  const result = await reportProblem(db, userId, transaction.id, submission.value.message);
  if (result.kind === "notFound") throw await notFound(request);
  if (result.kind !== "ok") {
    return refuse(submission, {
      fieldErrors: { message: [result.kind === "tooLong" ? "errors.reportTooLong" : "errors.reportTooShort"] },
    });
  }
  return redirectWithFlash(request, internalPath("/cards/:cardId", { cardId: transaction.cardId }), {
    kind: "success",
    message: "cards.report.sent",
  });
}

export default function ReportProblem({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { cardId, transaction } = loaderData;
  // Validated on the server (docs/decisions/0008); conform shows its answer, with or without JS.
  const [form, fields] = useForm<ProblemReportForm>({ id: "report", lastResult: actionData });
  const error = fields.message.errors?.[0];
  return (
    <div className="narrow">
      <PageHeader title={t("cards.report.title")} error={Boolean(error)} />
      <ErrorSummary form={form} fields={[fields.message]} />
      <TransactionSummary
        merchant={`${transaction.merchantName}, ${transaction.merchantCity}`}
        transactionAt={transaction.transactionAt}
        amount={transaction.amount}
      />
      <Form method="post" {...getFormProps(form)} noValidate>
        <TextArea
          required
          field={fields.message}
          label={t("cards.report.message")}
          hint={t("cards.report.hint")}
          rows={6}
        />
        <div className="actions">
          <button type="submit" className="button">
            {t("cards.report.submit")}
          </button>
          <Link to={href("/cards/:cardId", { cardId })} className="link-action">
            {t("cards.report.back")}
          </Link>
        </div>
      </Form>
    </div>
  );
}
