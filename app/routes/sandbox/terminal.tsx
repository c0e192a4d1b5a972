import { getFormProps } from "~/components/forms/useForm";
import { data, Form } from "react-router";
import { useTranslation, type Translate } from "~/i18n";
import type { Route } from "./+types/terminal";
import { DocumentTitle } from "~/components/DocumentTitle";
import { DeclineExplanation } from "~/components/DeclineExplanation";
import { PublicShell } from "~/components/PublicShell";
import { Checkbox, ErrorSummary, Field, Radios, RequiredNote, Select, choiceTarget, useForm } from "~/components/forms";
import { formatDateTime, parisNow } from "~/domain/dates";
import { centsToField, formatCents } from "~/domain/money";
import { CUSTOM_MERCHANT, ENTRY_MODES, MERCHANT_PRESETS } from "~/domain/terminal";
import { terminalLifecycleSchema, terminalPaymentSchema } from "~/domain/terminal-schemas";
import { intents } from "~/routes/+shared/intents";
import { intentOf } from "~/routes/+shared/intents.server";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { internalPath } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { captureCardPayment, refundCardPayment, reverseCardPayment } from "~/.server/services/card-payments";
import {
  lifecycleOutcome,
  listTerminalAuthorisations,
  terminalPay,
  type TerminalAuthorisation,
} from "~/.server/services/sandbox-terminal";
import { newId } from "~/.server/ids";
import { sandboxPlatform } from "./sandbox.server";

const INTENT = intents("pay", "capture", "reverse", "refund");
const PAGE = "/dev/terminal" as const;

/**
 * Sandbox only (like /dev/outbox; a 404 otherwise): a payment terminal for the demo and the journeys (issue 17 §5,
 * decision 0037). A card by its last four digits (and its holder's e-mail when several cards share them), an amount,
 * a merchant, a day and time in Paris, how the card is used; the decision with its split, or the decline's reason.
 * Below, the latest authorisations, each with its capture, reversal and merchant refund. `npm run sandbox:pay` does
 * the same from a shell.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { db } = await sandboxPlatform();
  const params = new URL(request.url).searchParams;
  const holder = params.get("holder")?.slice(0, 254) ?? null;
  const decided = params.get("authorization")?.slice(0, 100) ?? null;
  const [recent, decision] = await Promise.all([
    listTerminalAuthorisations(db, { holder }),
    decided ? listTerminalAuthorisations(db, { id: decided }).then((rows) => rows[0] ?? null) : null,
  ]);
  return data({ recent, decision, holder, now: parisNow() }, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request }: Route.ActionArgs) {
  const platform = await sandboxPlatform();
  const form = await request.formData();
  const intent = intentOf(form, INTENT);
  if (intent === INTENT.pay) {
    const submission = parseForm(form, terminalPaymentSchema);
    if (submission.status !== "success") return refuse(submission, { hideFields: ["pin"] });
    const result = await terminalPay(platform, submission.value);
    switch (result.kind) {
      case "unknownCard":
        return refuse(submission, { fieldErrors: { card: ["terminal.errors.cardUnknown"] }, hideFields: ["pin"] });
      case "ambiguousCard":
        return refuse(submission, { fieldErrors: { holder: ["terminal.errors.cardAmbiguous"] }, hideFields: ["pin"] });
      case "invalid":
        return refuse(submission, { formErrors: [`cards.transactions.reasons.${result.code}`], hideFields: ["pin"] });
      case "decided":
        return redirectWithFlash(
          request,
          internalPath(PAGE, {}, { search: { holder: result.holder, authorization: result.authorizationId } }),
          { kind: "success", message: "terminal.decided" },
        );
    }
  }
  // Capture, reversal and refund: the result said in a flash message, back to the same list.
  const holder = new URL(request.url).searchParams.get("holder")?.slice(0, 254);
  const back = internalPath(PAGE, {}, { search: holder ? { holder } : {} });
  const flash = (kind: "success" | "error", message: string) => redirectWithFlash(request, back, { kind, message });
  const submission = parseForm(form, terminalLifecycleSchema);
  // A refused amount: 400, said above the list (these small forms are not the payment form's fields).
  const refused = (error: string) => data({ lifecycleError: error }, { status: 400 });
  if (submission.status !== "success")
    return refused(Object.values(submission.error ?? {}).flat()[0] ?? "terminal.errors.amountFormat");
  const { authorization, amount } = submission.value;
  if ((intent === INTENT.capture || intent === INTENT.refund) && amount === null)
    return refused("terminal.errors.amountRequired");
  const result =
    intent === INTENT.capture
      ? await captureCardPayment(platform, authorization, amount!)
      : intent === INTENT.reverse
        ? await reverseCardPayment(platform, authorization)
        : // Each press is a new refund of the merchant's (its own reference).
          await refundCardPayment(platform, authorization, amount!, newId("mref"));
  const outcome = lifecycleOutcome(result, intent);
  return outcome.kind === "done"
    ? flash("success", `terminal.${outcome.code}`)
    : flash("error", `terminal.errors.${outcome.code}`);
}

function stateInWords(t: Translate, a: TerminalAuthorisation): string {
  const state = t(`terminal.state.${a.state}`);
  return a.reason ? `${state} : ${t(`cards.transactions.reasons.${a.reason}`, { defaultValue: a.reason })}` : state;
}

/**
 * The decision: approved with each wallet's part and the overflow's charge, or declined with its cause and, when the
 * engine recorded them, what each wallet and the saved card could pay (issue 30 §3).
 */
function Decision({ decision }: { decision: TerminalAuthorisation }) {
  const { t } = useTranslation();
  const approved = decision.state === "approved" || decision.state === "captured";
  return (
    <section
      className={`alert ${approved ? "alert--success" : "alert--error"}`}
      aria-labelledby="decision-title"
      id="decision"
    >
      <h2 id="decision-title">
        {approved
          ? t("terminal.approved", { amount: formatCents(decision.amount) })
          : t("terminal.declined", { amount: formatCents(decision.amount) })}
      </h2>
      {approved ? (
        <ul>
          {decision.parts.map((p) => (
            <li key={p.wallet}>{t("terminal.part", { wallet: p.wallet, amount: formatCents(p.amount) })}</li>
          ))}
          {decision.overflow > 0 ? (
            <li>
              {t("terminal.overflow", {
                amount: formatCents(decision.overflow),
                status: t(`terminal.charge.${decision.overflowStatus ?? "processing"}`, {
                  defaultValue: decision.overflowStatus ?? "",
                }),
              })}
            </li>
          ) : null}
        </ul>
      ) : (
        <DeclineExplanation
          code={decision.reason ?? ""}
          detail={decision.detail}
          lead={t("cards.transactions.status.declined")}
        />
      )}
    </section>
  );
}

function LifecycleForms({ a }: { a: TerminalAuthorisation }) {
  const { t } = useTranslation();
  const label = `${a.merchantName} ${formatCents(a.amount)}`;
  return (
    <div className="actions">
      {a.state === "approved" ? (
        <>
          <AmountForm
            authorization={a.id}
            intent={INTENT.capture}
            amount={a.amount}
            field={t("terminal.captureAmount")}
            action={t("terminal.capture")}
            label={label}
          />
          <Form method="post">
            <input type="hidden" name="authorization" value={a.id} />
            <button
              type="submit"
              name="intent"
              value={INTENT.reverse}
              className="button button--secondary button--small"
            >
              {t("terminal.reverse")}
              <span className="visually-hidden"> {label}</span>
            </button>
          </Form>
        </>
      ) : null}
      {a.state === "captured" && a.refundable > 0 ? (
        <AmountForm
          authorization={a.id}
          intent={INTENT.refund}
          amount={a.refundable}
          field={t("terminal.refundAmount")}
          action={t("terminal.refund")}
          label={label}
          secondary
        />
      ) : null}
    </div>
  );
}

export default function SandboxTerminal({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { recent, decision, holder, now } = loaderData;
  const lifecycleError = actionData && "lifecycleError" in actionData ? actionData.lifecycleError : null;
  const [form, fields] = useForm({
    id: "terminal",
    lastResult: actionData && !("lifecycleError" in actionData) ? actionData : undefined,
    defaultValue: {
      card: "",
      holder: holder ?? "",
      amount: "",
      currency: "EUR",
      merchant: "restaurant",
      categoryCode: "",
      merchantName: "",
      merchantCity: "",
      day: now.day,
      time: now.time,
      entryMode: "contactless",
      pin: "",
      failNextCharge: "",
    },
  });
  const merchantOptions = [
    ...MERCHANT_PRESETS.map((p) => ({ value: p.id, label: t(`terminal.presets.${p.id}`, { code: p.code }) })),
    { value: CUSTOM_MERCHANT, label: t("terminal.presets.custom") },
  ];
  const entryOptions = ENTRY_MODES.map((mode) => ({ value: mode, label: t(`terminal.entryModes.${mode}`) }));
  return (
    <PublicShell>
      <DocumentTitle page={t("terminal.title")} />
      <h1>{t("terminal.title")}</h1>
      <p>{t("terminal.intro")}</p>
      {decision ? <Decision decision={decision} /> : null}
      <ErrorSummary
        form={form}
        fields={[
          fields.card,
          fields.holder,
          fields.amount,
          fields.currency,
          fields.merchant,
          fields.categoryCode,
          fields.merchantName,
          fields.merchantCity,
          fields.day,
          fields.time,
          { field: fields.entryMode, target: choiceTarget(fields.entryMode, entryOptions) },
          fields.pin,
        ]}
      />
      <Form method="post" {...getFormProps(form)} noValidate>
        <RequiredNote />
        <Field
          field={fields.card}
          label={t("terminal.card")}
          hint={t("terminal.cardHint")}
          inputMode="numeric"
          required
        />
        <Field
          field={fields.holder}
          type="email"
          label={t("terminal.holder")}
          hint={t("terminal.holderHint")}
          optional
        />
        <Field
          field={fields.amount}
          label={t("terminal.amount")}
          hint={t("terminal.amountHint")}
          inputMode="decimal"
          required
        />
        <Field field={fields.currency} label={t("terminal.currency")} required />
        <Select field={fields.merchant} label={t("terminal.merchant")} options={merchantOptions} required />
        <Field
          field={fields.categoryCode}
          label={t("terminal.categoryCode")}
          hint={t("terminal.categoryCodeHint")}
          inputMode="numeric"
          optional
        />
        <Field field={fields.merchantName} label={t("terminal.merchantName")} optional />
        <Field field={fields.merchantCity} label={t("terminal.merchantCity")} optional />
        <Field field={fields.day} label={t("terminal.day")} hint={t("terminal.dayHint")} required />
        <Field field={fields.time} label={t("terminal.time")} hint={t("terminal.timeHint")} required />
        <Radios field={fields.entryMode} legend={t("terminal.entryMode")} options={entryOptions} required />
        <Field
          field={fields.pin}
          type="password"
          label={t("terminal.pin")}
          hint={t("terminal.pinHint")}
          inputMode="numeric"
          autoComplete="off"
          optional
        />
        <Checkbox field={fields.failNextCharge} label={t("terminal.failNextCharge")} />
        <div className="actions">
          <button type="submit" name="intent" value={INTENT.pay} className="button">
            {t("terminal.pay")}
          </button>
        </div>
      </Form>
      <h2 id="recent">{holder ? t("terminal.recentOf", { holder }) : t("terminal.recent")}</h2>
      {lifecycleError ? (
        <div className="alert alert--error" role="alert">
          <p>{t(lifecycleError)}</p>
        </div>
      ) : null}
      {recent.length === 0 ? (
        <p>{t("terminal.none")}</p>
      ) : (
        <ol className="outbox">
          {recent.map((a) => {
            const name = `${a.merchantName} — ${formatCents(a.amount)} — •••• ${a.lastFour}`;
            return (
              <li key={a.id} className="outbox__message" aria-label={name}>
                <h3 className="outbox__subject">{name}</h3>
                <dl className="outbox__meta">
                  <dt>{t("terminal.holderShort")}</dt>
                  <dd>{a.holder}</dd>
                  <dt>{t("terminal.when")}</dt>
                  <dd>{formatDateTime(a.transactionAt)}</dd>
                  <dt>{t("terminal.stateLabel")}</dt>
                  <dd>{stateInWords(t, a)}</dd>
                  {a.parts.length > 0 || a.overflow > 0 ? (
                    <>
                      <dt>{t("terminal.split")}</dt>
                      <dd>
                        {[
                          ...a.parts.map((p) => `${p.wallet} ${formatCents(p.amount)}`),
                          ...(a.overflow > 0
                            ? [
                                `${t("terminal.overflowShort")} ${formatCents(a.overflow)} (${t(
                                  `terminal.charge.${a.overflowStatus ?? "processing"}`,
                                  { defaultValue: a.overflowStatus ?? "" },
                                )})`,
                              ]
                            : []),
                        ].join(" · ")}
                      </dd>
                    </>
                  ) : null}
                </dl>
                <LifecycleForms a={a} />
              </li>
            );
          })}
        </ol>
      )}
    </PublicShell>
  );
}

/** A lifecycle step that takes an amount (capture, refund): the amount in euros, prefilled, and its button. */
function AmountForm(props: {
  authorization: string;
  intent: string;
  amount: number;
  field: string;
  action: string;
  label: string;
  secondary?: boolean;
}) {
  const inputId = `${props.intent}-${props.authorization}`;
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="authorization" value={props.authorization} />
      <label htmlFor={inputId}>{props.field}</label>
      <input
        className="input input--short"
        id={inputId}
        name="amount"
        inputMode="decimal"
        defaultValue={centsToField(props.amount)}
      />
      <button
        type="submit"
        name="intent"
        value={props.intent}
        className={props.secondary ? "button button--secondary button--small" : "button button--small"}
      >
        {props.action}
        <span className="visually-hidden"> {props.label}</span>
      </button>
    </Form>
  );
}
