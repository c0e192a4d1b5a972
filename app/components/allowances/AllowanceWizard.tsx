import { Form, Link } from "react-router";
import { useTranslation } from "~/i18n";
import { formatKilometres } from "~/domain/allowances";
import { formatDate, formatMonth } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import { INTENT_FIELD } from "~/routes/+shared/intents";
import { SubscriptionSteps } from "./SubscriptionSteps";
import { DistanceSteps } from "./DistanceSteps";
import {
  CLOSE_INTENT,
  type AllowanceFlow,
  type AllowanceReply,
  type AllowanceSummaryView,
  type FrameView,
} from "./wizard";

/**
 * The allowance wizards' frame inside its panel (routes/allowances/wizard.tsx): the type choice, the
 * notice for a type not allowed, an allowance already asked for (read-only), the close confirmation, and
 * the steps of the draft's flow (DistanceSteps for carpooling and bicycle, SubscriptionSteps).
 */

/** True when the page shows errors (its title then starts with "Erreur : "). */
export function allowanceWizardInvalid(actionData: AllowanceReply | undefined): boolean {
  const error = actionData?.lastResult.error;
  return Boolean(error && Object.values(error).some((e) => e?.length));
}

/** The refused step's answer, for the step shown of this flow only (an answer for another, an old tab's, is not). */
function replyFor(actionData: AllowanceReply | undefined, flow: AllowanceFlow, step: string) {
  return actionData?.flow === flow && actionData.step === step ? actionData.lastResult : undefined;
}

/** The panel's title for this view. */
export function allowanceWizardTitle(view: FrameView, t: (key: string) => string): string {
  switch (view.kind) {
    case "distance":
      return t(`allowanceWizard.titles.${view.type}`);
    case "subscription":
      return t("allowanceWizard.titles.subscription");
    case "confirmClose":
      return t(`allowanceWizard.titles.${view.type}`);
    case "allowance":
      return t("allowanceWizard.titles.allowance");
    default:
      return t("allowanceWizard.titles.new");
  }
}

export function AllowanceWizard({ view, actionData }: { view: FrameView; actionData: AllowanceReply | undefined }) {
  switch (view.kind) {
    case "choose":
      return <TypeChoice view={view} />;
    case "notAllowed":
      return <NotAllowed closeTo={view.closeTo} />;
    case "allowance":
      return <ReadOnly allowance={view.allowance} />;
    case "confirmClose":
      return <CloseConfirmation view={view} />;
    case "distance":
      return <DistanceSteps wizard={view} lastResult={replyFor(actionData, view.kind, view.step)} />;
    case "subscription":
      return <SubscriptionSteps wizard={view} lastResult={replyFor(actionData, view.kind, view.step)} />;
  }
}

function TypeChoice({ view }: { view: Extract<FrameView, { kind: "choose" }> }) {
  const { t } = useTranslation();
  if (view.types.length === 0) return <NotAllowed closeTo={view.closeTo} />;
  return (
    <>
      <p>{t("allowanceWizard.choose.intro")}</p>
      <ul className="choice-links">
        {view.types.map(({ type, href }) => (
          <li key={type}>
            <Link to={href} preventScrollReset>
              {t(`allowances.types.${type}`)}
            </Link>
            <p className="hint">{t(`allowanceWizard.choose.hints.${type}`)}</p>
          </li>
        ))}
      </ul>
      <div className="actions">
        <Link to={view.closeTo} className="link-action" preventScrollReset>
          {t("allowanceWizard.cancel")}
        </Link>
      </div>
    </>
  );
}

function NotAllowed({ closeTo }: { closeTo: string }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="alert alert--warning" role="status">
        <p>{t("allowanceWizard.notAllowed")}</p>
      </div>
      <div className="actions">
        <Link to={closeTo} className="link-action" preventScrollReset>
          {t("allowanceWizard.cancel")}
        </Link>
      </div>
    </>
  );
}

/** An allowance already asked for: its figures, and how they were reached, in words. */
function ReadOnly({ allowance: a }: { allowance: AllowanceSummaryView }) {
  const { t } = useTranslation();
  const row = (label: string, value: React.ReactNode) => (
    <div>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
  return (
    <div className="refund-wizard">
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

/** Closing once something would be lost: said first, in the panel (a page of its own without JS). */
function CloseConfirmation({ view }: { view: Extract<FrameView, { kind: "confirmClose" }> }) {
  const { t } = useTranslation();
  return (
    <div className="refund-wizard">
      <h3 id="allowance-wizard-step">{t("allowanceWizard.close.title")}</h3>
      <p>{t("allowanceWizard.close.text")}</p>
      <Form method="post" action={view.here} className="actions" preventScrollReset>
        <button type="submit" name={INTENT_FIELD} value={CLOSE_INTENT.discard} className="button">
          {t("allowanceWizard.close.confirm")}
        </button>
        <Link to={view.resume} className="link-action" preventScrollReset>
          {t("allowanceWizard.close.resume")}
        </Link>
      </Form>
    </div>
  );
}
