import { data, Form } from "react-router";
import { z } from "zod";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/allowance-review";
import { DocumentTitle } from "~/components/DocumentTitle";
import { PublicShell } from "~/components/PublicShell";
import { formatDate, todayInParis } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import { formatKilometres, isDistanceType, USUAL_ONE_WAY_METERS } from "~/domain/allowances";
import { intents } from "~/routes/+shared/intents";
import { intentOf } from "~/routes/+shared/intents.server";
import { parseForm } from "~/routes/+shared/forms.server";
import { redirectWithFlash, refusal } from "~/routes/+shared/request.server";
import { ReviewForms } from "~/components/ReviewForms";
import { sandboxPlatform } from "./sandbox.server";
import { listScheduledAllowancePayouts, payDueAllowancePayouts } from "~/.server/services/allowances/payouts";
import {
  ALLOWANCE_REASON_MAX,
  listAllowancesAwaitingReview,
  reviewAllowance,
  type AllowanceReviewResult,
} from "~/.server/services/allowances/review";

const INTENT = intents("approve", "refuse", "payDue");
const PAGE = "/dev/allowances" as const;

/** What the page says after each outcome of a review. */
const OUTCOMES: Record<AllowanceReviewResult["kind"], ["success" | "error", string]> = {
  approved: ["success", "allowances.review.approved"],
  refused: ["success", "allowances.review.refused"],
  notFound: ["error", "allowances.review.notFound"],
  notReviewable: ["error", "allowances.review.notReviewable"],
  reasonRequired: ["error", "allowances.review.reasonRequired"],
};

const reviewSchema = z.object({
  allowanceId: z.string().max(100).default(""),
  reason: z.string().max(ALLOWANCE_REASON_MAX).default(""),
});

/** A distance in metres as the review says it: "511,63 km". */
const km = (meters: number) => formatKilometres(meters / 1000);

/** 2026-11 → 11/2026. */
const month = (value: string) => `${value.slice(5, 7)}/${value.slice(0, 4)}`;

/**
 * Sandbox only (like /dev/expense-requests): the funder's side of mobility allowances, so the demo and the
 * journeys can move an allowance on — approve (one payout per month of its period) or refuse with a
 * reason — and pay the monthly payouts that are due. `npm run sandbox:allowances` does the same from a shell.
 */
export async function loader() {
  const { db } = await sandboxPlatform();
  const [awaiting, payouts] = await Promise.all([listAllowancesAwaitingReview(db), listScheduledAllowancePayouts(db)]);
  return data({ awaiting, payouts, reasonMax: ALLOWANCE_REASON_MAX }, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request }: Route.ActionArgs) {
  const { db, messenger, push } = await sandboxPlatform();
  const form = await request.formData();
  const intent = intentOf(form, INTENT);
  if (intent === INTENT.payDue) {
    await payDueAllowancePayouts(db, todayInParis(), { messenger, push });
    return redirectWithFlash(request, PAGE, { kind: "success", message: "allowances.review.paid" });
  }
  const submission = parseForm(form, reviewSchema);
  if (submission.status !== "success") throw refusal(400, "allowances.review.reasonRequired");
  const { allowanceId, reason } = submission.value;
  const result = await reviewAllowance(
    db,
    allowanceId,
    intent === INTENT.approve ? { kind: "approve" } : { kind: "refuse", reason },
    { messenger, push },
  );
  const [kind, message] = OUTCOMES[result.kind];
  return redirectWithFlash(request, PAGE, { kind, message });
}

export default function SandboxAllowanceReview({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { awaiting, payouts, reasonMax } = loaderData;
  return (
    <PublicShell>
      <DocumentTitle page={t("allowances.review.title")} />
      <h1>{t("allowances.review.title")}</h1>
      <p>{t("allowances.review.intro")}</p>
      {awaiting.length === 0 ? (
        <p>{t("allowances.review.empty")}</p>
      ) : (
        <ol className="outbox">
          {awaiting.map((a) => {
            const name = `${t(`allowances.types.${a.type}`)} — ${formatCents(a.amount)}`;
            return (
              <li key={a.id} className="outbox__message" aria-label={name}>
                <h2 className="outbox__subject">{name}</h2>
                <dl className="outbox__meta">
                  <dt>{t("allowances.review.requester")}</dt>
                  <dd>{a.userEmail}</dd>
                  <dt>{t("allowances.review.group")}</dt>
                  <dd>{a.groupName}</dd>
                  <dt>{t("allowances.review.period")}</dt>
                  <dd>
                    {t("allowances.review.periodValue", { start: formatDate(a.startAt), end: formatDate(a.endsAt) })}
                  </dd>
                  {a.estimateMeters !== null ? (
                    <>
                      <dt>{t("allowances.review.distance")}</dt>
                      <dd>
                        {a.declaredMeters !== null
                          ? t("allowances.review.distanceDeclared", {
                              distance: km(a.declaredMeters),
                              estimate: km(a.estimateMeters),
                            })
                          : t("allowances.review.distanceEstimate", { distance: km(a.estimateMeters) })}
                      </dd>
                    </>
                  ) : null}
                </dl>
                {a.plausibility && isDistanceType(a.type) ? (
                  <div className="alert alert--warning">
                    <p>{t("allowances.review.flagged", { usual: `${USUAL_ONE_WAY_METERS[a.type] / 1000} km` })}</p>
                    <p>{t("allowances.review.flagReason")}</p>
                    <blockquote>{a.plausibility.reason}</blockquote>
                  </div>
                ) : null}
                <code>{a.id}</code>
                <ReviewForms
                  idName="allowanceId"
                  id={a.id}
                  reasonLabel={t("allowances.review.reason")}
                  reasonMax={reasonMax}
                  approve={{ intent: INTENT.approve, label: t("allowances.review.approve") }}
                  withReason={[{ intent: INTENT.refuse, label: t("allowances.review.refuse") }]}
                />
              </li>
            );
          })}
        </ol>
      )}
      <h2>{t("allowances.review.payoutsTitle")}</h2>
      {payouts.length === 0 ? (
        <p>{t("allowances.review.payoutsEmpty")}</p>
      ) : (
        <ul>
          {payouts.map((p) => (
            <li key={p.id}>
              {t("allowances.review.payout", {
                amount: formatCents(p.amount),
                month: month(p.month),
                date: formatDate(p.scheduledFor),
              })}{" "}
              (<code>{p.allowanceId}</code>)
            </li>
          ))}
        </ul>
      )}
      <Form method="post">
        <button type="submit" name="intent" value={INTENT.payDue} className="button">
          {t("allowances.review.payDue")}
        </button>
      </Form>
    </PublicShell>
  );
}
