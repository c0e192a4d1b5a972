import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "~/i18n";
import { Form, Link } from "react-router";
import type { Route } from "./+types/_app.cards.$cardId.transactions.$authorizationId.report";
import { ErrorSummary } from "~/components/ErrorSummary";
import { PageHeader } from "~/components/PageHeader";
import { formatDateTime } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import { problemReportSchema } from "~/domain/schemas";
import { accountContext } from "~/.server/auth";
import { getPlatform } from "~/.server/platform";
import { badRequest, redirectWithFlash } from "~/.server/request";
import { reportableTransaction, reportProblem } from "~/.server/services/transactions";

/** Report a problem on an approved or declined transaction (spec 000 §2 side panels, §5). */
async function transactionOrRedirect(request: Request, context: Route.LoaderArgs["context"], params: Route.LoaderArgs["params"]) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const transaction = await reportableTransaction(db, account.id, params.cardId, params.authorizationId);
  if (!transaction) throw await redirectWithFlash(request, "/cards", { kind: "error", message: "cards.report.notFound" });
  return { transaction, account, db };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { transaction } = await transactionOrRedirect(request, context, params);
  return { cardId: params.cardId, transaction };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { account, db } = await transactionOrRedirect(request, context, params);
  const submission = parseWithZod(await request.formData(), { schema: problemReportSchema });
  if (submission.status !== "success") return badRequest({ lastResult: submission.reply() });
  const result = await reportProblem(db, account.id, params.cardId, params.authorizationId, submission.value.message);
  if (result !== "ok") return badRequest({ lastResult: submission.reply({ fieldErrors: { message: [result === "too_long" ? "errors.reportTooLong" : "errors.reportTooShort"] } }) });
  return redirectWithFlash(request, `/cards/${params.cardId}`, { kind: "success", message: "cards.report.sent" });
}

export default function ReportProblem({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { cardId, transaction } = loaderData;
  const [form, fields] = useForm({
    id: "report",
    lastResult: actionData?.lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: problemReportSchema }),
  });
  const error = fields.message.errors?.[0];
  const describedBy = ["report-hint", error ? "report-error" : null].filter(Boolean).join(" ");
  return (
    <div className="narrow">
      <PageHeader title={t("cards.report.title")} error={Boolean(error)} />
      <ErrorSummary errors={error ? [{ fieldId: fields.message.id, message: error }] : []} />
      <dl className="summary-list">
        <div>
          <dt>{t("cards.report.merchant")}</dt>
          <dd>
            {transaction.merchantName}, {transaction.merchantCity}
          </dd>
        </div>
        <div>
          <dt>{t("cards.report.date")}</dt>
          <dd>{formatDateTime(transaction.transactionAt)}</dd>
        </div>
        <div>
          <dt>{t("cards.report.amount")}</dt>
          <dd>{formatCents(transaction.amount)}</dd>
        </div>
      </dl>
      <Form method="post" {...getFormProps(form)} noValidate>
        <div className={`field${error ? " field--error" : ""}`}>
          <label className="field__label" htmlFor={fields.message.id}>
            {t("cards.report.message")}
          </label>
          <p className="field__hint" id="report-hint">
            {t("cards.report.hint")}
          </p>
          {error ? (
            <p className="field__error" id="report-error">
              <span className="visually-hidden">{t("errors.prefix")}</span>
              {t(error)}
            </p>
          ) : null}
          <textarea
            {...getTextareaProps(fields.message, { ariaAttributes: false })}
            className="input textarea"
            rows={6}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
          />
        </div>
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
