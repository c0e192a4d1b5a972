import { data, Form } from "react-router";
import { z } from "zod";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/review";
import { DocumentTitle } from "~/components/DocumentTitle";
import { PublicShell } from "~/components/PublicShell";
import { formatDate, todayInParis } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import { intents } from "~/routes/+shared/intents";
import { intentOf } from "~/routes/+shared/intents.server";
import { parseForm } from "~/routes/+shared/forms.server";
import { redirectWithFlash, refusal } from "~/routes/+shared/request.server";
import { ReviewForms } from "~/components/ReviewForms";
import { sandboxPlatform } from "./sandbox.server";
import { REVIEW_REASON_MAX } from "~/domain/refunds";
import { listScheduledPayouts, payDuePayouts } from "~/.server/services/refunds/payouts";
import { listRequestsAwaitingReview, reviewRefund, type ReviewDecision } from "~/.server/services/refunds/review";

const INTENT = intents("approve", "refuse", "correct", "payDue");
const PAGE = "/dev/expense-requests" as const;

const reviewSchema = z.object({
  requestId: z.string().max(100).default(""),
  reason: z.string().max(REVIEW_REASON_MAX).default(""),
});

/**
 * Sandbox only (like /dev/outbox): the funder's side of refund requests, so the demo and the journeys can
 * move a request on — approve (wallets debited, payout in 7 working days), refuse or ask for a correction
 * with a reason — and pay the payouts that are due. `npm run sandbox:review` does the same from a shell.
 */
export async function loader() {
  const { db } = await sandboxPlatform();
  const [awaiting, payouts] = await Promise.all([listRequestsAwaitingReview(db), listScheduledPayouts(db)]);
  return data({ awaiting, payouts, reasonMax: REVIEW_REASON_MAX }, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request }: Route.ActionArgs) {
  const { db, messenger, push } = await sandboxPlatform();
  const form = await request.formData();
  const intent = intentOf(form, INTENT);
  if (intent === INTENT.payDue) {
    await payDuePayouts(db, messenger, todayInParis(), { push });
    return redirectWithFlash(request, PAGE, { kind: "success", message: "refunds.review.paid" });
  }
  const submission = parseForm(form, reviewSchema);
  if (submission.status !== "success") throw refusal(400, "refunds.review.reasonRequired");
  const { requestId, reason } = submission.value;
  const decision: ReviewDecision =
    intent === INTENT.approve
      ? { kind: "approve" }
      : intent === INTENT.refuse
        ? { kind: "refuse", reason }
        : { kind: "askCorrection", reason };
  const result = await reviewRefund(db, messenger, requestId, decision, { push });
  switch (result.kind) {
    case "approved":
      return redirectWithFlash(request, PAGE, { kind: "success", message: "refunds.review.approved" });
    case "refused":
      return redirectWithFlash(request, PAGE, { kind: "success", message: "refunds.review.refused" });
    case "toCorrect":
      return redirectWithFlash(request, PAGE, { kind: "success", message: "refunds.review.toCorrect" });
    case "notFound":
      return redirectWithFlash(request, PAGE, { kind: "error", message: "refunds.review.notFound" });
    case "notReviewable":
      return redirectWithFlash(request, PAGE, { kind: "error", message: "refunds.review.notReviewable" });
    case "reasonRequired":
      return redirectWithFlash(request, PAGE, { kind: "error", message: "refunds.review.reasonRequired" });
  }
}

export default function SandboxReview({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { awaiting, payouts, reasonMax } = loaderData;
  return (
    <PublicShell>
      <DocumentTitle page={t("refunds.review.title")} />
      <h1>{t("refunds.review.title")}</h1>
      <p>{t("refunds.review.intro")}</p>
      {awaiting.length === 0 ? (
        <p>{t("refunds.review.empty")}</p>
      ) : (
        <ol className="outbox">
          {awaiting.map((r) => {
            const name = `${r.partnerName ?? t("refunds.list.partnerUnknown")} — ${formatCents(r.amount)}`;
            return (
              <li key={r.id} className="outbox__message" aria-label={name}>
                <h2 className="outbox__subject">{name}</h2>
                <dl className="outbox__meta">
                  <dt>{t("refunds.review.requester")}</dt>
                  <dd>{r.userEmail}</dd>
                  <dt>{t("refunds.list.type")}</dt>
                  <dd>{r.typeName}</dd>
                  <dt>{t("refunds.list.ticketDate")}</dt>
                  <dd>{formatDate(r.ticketDate)}</dd>
                </dl>
                <code>{r.id}</code>
                <ReviewForms
                  idName="requestId"
                  id={r.id}
                  reasonLabel={t("refunds.review.reason")}
                  reasonMax={reasonMax}
                  approve={{ intent: INTENT.approve, label: t("refunds.review.approve") }}
                  withReason={[
                    { intent: INTENT.refuse, label: t("refunds.review.refuse") },
                    { intent: INTENT.correct, label: t("refunds.review.askCorrection") },
                  ]}
                />
              </li>
            );
          })}
        </ol>
      )}
      <h2>{t("refunds.review.payoutsTitle")}</h2>
      {payouts.length === 0 ? (
        <p>{t("refunds.review.payoutsEmpty")}</p>
      ) : (
        <ul>
          {payouts.map((p) => (
            <li key={p.requestId}>
              {formatCents(p.amount)} {t("refunds.review.scheduledFor", { date: formatDate(p.scheduledFor) })} (
              <code>{p.requestId}</code>)
            </li>
          ))}
        </ul>
      )}
      <Form method="post">
        <button type="submit" name="intent" value={INTENT.payDue} className="button">
          {t("refunds.review.payDue")}
        </button>
      </Form>
    </PublicShell>
  );
}
