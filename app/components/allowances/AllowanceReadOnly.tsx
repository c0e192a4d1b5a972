import { useTranslation } from "~/i18n";
import { formatKilometres } from "~/domain/allowances";
import { formatDate, formatMonth } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import type { AllowanceSummaryView } from "./wizard";

/*
 * The allowance wizards' read-only panel (AllowanceWizard.tsx), in a file of its own: the wizard's steps and
 * type choice never load it (decision 0080).
 */

/** An allowance already asked for: its figures, and how they were reached, in words. */
export function ReadOnly({ allowance: a }: { allowance: AllowanceSummaryView }) {
  const { t } = useTranslation();
  const row = (label: string, value: React.ReactNode) => (
    <div>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
  return (
    <div className="refund-wizard" data-wizard-part="allowance">
      <dl className="summary-list">
        {row(t("allowanceWizard.summary.type"), t(`allowances.types.${a.type}`))}
        {row(t("allowanceWizard.summary.group"), a.groupName)}
        {row(t("allowanceWizard.readOnly.status"), t(`allowances.status.${a.status}`, { defaultValue: a.status }))}
        {a.refusalReason ? row(t("allowanceWizard.readOnly.refusalReason"), a.refusalReason) : null}
        {row(
          t("allowanceWizard.readOnly.period"),
          t("allowanceWizard.readOnly.periodValue", { start: formatDate(a.startAt), end: formatDate(a.endsAt) }),
        )}
        {a.travelRole ? row(t("allowanceWizard.summary.role"), t(`allowances.travelRoles.${a.travelRole}`)) : null}
        {row(t("allowanceWizard.summary.allowance"), <strong>{formatCents(a.amount)}</strong>)}
        {row(
          t("allowanceWizard.readOnly.how"),
          a.type === "subscription"
            ? t("allowanceWizard.readOnly.subscription", {
                price: formatCents(a.subscriptionAmount ?? 0),
                percentage: a.percentage ?? 0,
                amount: formatCents(a.amount),
              })
            : t("allowanceWizard.readOnly.distance", {
                roundTrip: formatKilometres(Number(a.distanceRoundtrip ?? "0")),
                days: a.daysAtOffice ?? 0,
                rate: formatCents(a.ratePerKm ?? 0),
                amount: formatCents(a.amountBeforeCap ?? a.amount),
              }),
        )}
        {a.unusual && a.type !== "subscription"
          ? row(
              t("allowanceWizard.summary.distance"),
              t(`allowanceWizard.readOnly.unusual.${a.type}`, {
                distance: formatKilometres(a.unusual.meters / 1000),
                usual: `${a.unusual.usualMeters / 1000} km`,
              }),
            )
          : null}
        {a.amountBeforeCap !== null && a.amountBeforeCap > a.amount
          ? row(
              t("allowanceWizard.readOnly.cap"),
              t("allowanceWizard.readOnly.capped", {
                remaining: formatCents(a.capRemainingBefore ?? a.amount),
                amount: formatCents(a.amount),
              }),
            )
          : null}
        {a.monthlyAmount !== null && a.numberOfMonths !== null
          ? row(
              t("allowanceWizard.summary.monthly"),
              t("allowanceWizard.summary.monthlyValue", {
                amount: formatCents(a.monthlyAmount),
                count: a.numberOfMonths,
              }),
            )
          : null}
        {row(t("allowanceWizard.summary.iban"), t("allowanceWizard.summary.ibanMasked", { lastFour: a.ibanLastFour }))}
        {a.signedAt ? row(t("allowanceWizard.readOnly.signedAt"), formatDate(a.signedAt)) : null}
        {a.media.length
          ? row(
              t("allowanceWizard.readOnly.documents"),
              <ul className="inline-links">
                {a.media.map((m) => (
                  <li key={m.id}>
                    <a href={m.href}>{m.label}</a>
                  </li>
                ))}
              </ul>,
            )
          : null}
        {a.payouts.length
          ? row(
              t("allowanceWizard.readOnly.payouts"),
              <ul>
                {a.payouts.map((p) => (
                  <li key={p.month}>
                    {t("allowanceWizard.readOnly.payout", {
                      month: formatMonth(p.month),
                      amount: formatCents(p.amount),
                      date: formatDate(p.scheduledFor),
                      status: t(`allowances.payoutStatus.${p.status}`, { defaultValue: p.status }),
                    })}
                  </li>
                ))}
              </ul>,
            )
          : null}
      </dl>
    </div>
  );
}
