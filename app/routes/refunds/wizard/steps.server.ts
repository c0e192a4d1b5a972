import { createDraft, saveDraftAnswers, type IbanSource, type RefundDraft } from "~/.server/services/refunds/drafts";
import { getPayoutDetails } from "~/.server/services/payout-details";
import { chooseExpenseType, eligibleWallets, loadRefundForEdit } from "~/.server/services/refunds/requests";
import { getPartner } from "~/.server/services/partners";
import { resolvePayoutIban } from "~/domain/payout-iban";
import { problem, type Problem } from "~/domain/problems";
import { validateSplit, type SplitError } from "~/domain/payment-methods";
import { findMobilitySubtype, mobilityChoices, stepIndex, type RefundProblem, type RefundStep } from "~/domain/refunds";
import {
  refundDetailsSchema,
  refundMethodsSchema,
  refundMobilitySchema,
  refundTicketSchema,
  refundTypeSchema,
} from "~/domain/refund-schemas";
import { todayInParis } from "~/domain/dates";
import { parseForm, reply } from "~/routes/+shared/forms.server";
import { internalRedirect, type InternalPath } from "~/routes/+shared/redirects.server";
import { refusalOf } from "~/routes/+shared/problems.server";
import { refusedStep, type StepHandlers } from "~/routes/+shared/wizard.server";
import { REFUND_WORDS } from "../problems.server";
import { mobilityLicences, stepPath, type ExpenseTypes, type WizardContext } from "./context.server";
import { send } from "./send.server";

/**
 * What "Continuer" does at each step of the refund wizard (spec 001 §2.6): one function a step, each
 * given the draft found and owned; a refusal is the step's form again (HTTP 400), an answer taken saves
 * it on the draft and goes to the next step. The type step also starts the draft when there is none.
 */

/** The action's context before a draft: the posted form. */
export type FormContext = WizardContext & { form: FormData };

/** The action's context at a step: the draft found and owned, its type, and where a step goes next. */
export type StepContext = FormContext & {
  draft: RefundDraft;
  typeOf: ExpenseTypes[number] | null;
  go: (to: RefundStep, extra?: Record<string, string>) => Response;
};

export type Refused = ReturnType<typeof refusedStep<RefundStep>>;
export type StepResult = Response | Refused;

export const CONTINUE: StepHandlers<RefundStep, StepContext, StepResult> = {
  type: (ctx) => chooseType(ctx, ctx.draft),
  preamble: async ({ go }) => go("mobility"),
  mobility: chooseSubtype,
  ticket: leaveTicket,
  details: saveDetails,
  methods: saveMethods,
  summary: send,
};

/** The type chosen (starting the draft if there is none yet): mobility goes on to its preamble or subtypes. */
export async function chooseType(ctx: FormContext, draft: RefundDraft | null): Promise<StepResult> {
  const { db, userId, locale, form, requestId } = ctx;
  const submission = parseForm(form, refundTypeSchema);
  if (submission.status !== "success") return refusedStep("type", reply(submission));
  // The built-in mobility type is stored in the catalogue when first chosen, so that the draft can name it.
  const chosen = await chooseExpenseType(db, userId, submission.value.type_id, locale);
  if (!chosen) return refusedStep("type", reply(submission, { fieldErrors: { type_id: [REFUND_WORDS.typeRequired] } }));
  const d = draft ?? (await createDraft(db, userId));
  const mobility = chosen.technicalName === "mobility";
  const preamble = mobility && (await mobilityLicences(db, userId)).length > 0 && d.stepReached < stepIndex("mobility");
  const to: RefundStep = mobility ? (preamble ? "preamble" : "mobility") : "ticket";
  await saveDraftAnswers(
    db,
    userId,
    d.id,
    { typeId: chosen.id, ...(mobility ? {} : { mobilityGroup: null, mobilitySubtype: null }) },
    stepIndex(to),
  );
  return internalRedirect(stepPath(requestId, d.id, to));
}

/** Where a mobility subtype with its own allowance wizard goes (built by the allowances issue). */
function allowancePath(type: "carpooling" | "bicycle" | "subscription"): InternalPath {
  // The allowance wizard's route is not in routes.ts yet: a fixed path with a fixed, known value.
  return `/plans/allowances/new?type=${encodeURIComponent(type)}` as InternalPath;
}

/** The mobility subtype, among those offered to the person; one with an allowance goes to its wizard. */
async function chooseSubtype({ db, userId, account, form, draft, go }: StepContext): Promise<StepResult> {
  const submission = parseForm(form, refundMobilitySchema);
  if (submission.status !== "success") return refusedStep("mobility", reply(submission));
  const offered = mobilityChoices(
    account.features,
    account.groups.map((g) => g.id),
  ).flatMap((g) => g.subtypes);
  const found = findMobilitySubtype(submission.value.subtype);
  if (!found || !offered.some((s) => s.id === found.subtype.id))
    return refusedStep(
      "mobility",
      reply(submission, { fieldErrors: { subtype: ["refundWizard.errors.subtypeRequired"] } }),
    );
  await saveDraftAnswers(
    db,
    userId,
    draft.id,
    { mobilityGroup: found.group, mobilitySubtype: found.subtype.id },
    stepIndex("ticket"),
  );
  if (found.subtype.allowance) return internalRedirect(allowancePath(found.subtype.allowance));
  return go("ticket");
}

/** The ticket step goes on once a receipt is on the draft. */
async function leaveTicket({ db, userId, form, draft, go }: StepContext): Promise<StepResult> {
  if (!draft.mediaId)
    return refusedStep(
      "ticket",
      reply(parseForm(form, refundTicketSchema), { fieldErrors: { receipt: [REFUND_WORDS.mediaRequired] } }),
    );
  await saveDraftAnswers(db, userId, draft.id, {}, stepIndex("details"));
  return go("details");
}

/** The partner (still enabled), the date and the amount; a new amount makes the split be chosen again. */
async function saveDetails({ db, userId, locale, form, draft, go }: StepContext): Promise<StepResult> {
  const submission = parseForm(form, refundDetailsSchema(todayInParis()));
  if (submission.status !== "success") return refusedStep("details", reply(submission));
  const partner = await getPartner(db, submission.value.partner_id, locale);
  if (!partner || !partner.enabled)
    return refusedStep("details", reply(submission, { fieldErrors: { partner_id: [REFUND_WORDS.partnerDisabled] } }));
  const { ticket_date, amount } = submission.value;
  // A new amount makes the split chosen for the old one wrong: it is chosen again.
  const methods = draft.amount !== amount ? { paymentMethods: [] } : {};
  await saveDraftAnswers(
    db,
    userId,
    draft.id,
    { partnerId: partner.id, ticketDate: ticket_date, amount, ...methods },
    stepIndex("methods"),
  );
  return go("methods");
}

/** The refund code of each refusal of the split (the platform's, checked again when the request is sent). */
const SPLIT_CODES: Record<SplitError, RefundProblem> = {
  amountFormat: "amountInvalid",
  negative: "paymentMethodAmountPositive",
  tooMuch: "paymentMethodOverAvailable",
  empty: "paymentMethodsRequired",
  total: "paymentMethodsTotal",
};

type Split = ReturnType<typeof validateSplit>;

/** The split over the eligible wallets, and its refusals on the rows they concern (the form's, without a row). */
async function splitOf({ db, userId, typeOf, draft }: StepContext, payments: { wallet_id: string; amount?: string }[]) {
  const wallets = await eligibleWallets(db, userId, typeOf?.technicalName ?? "", {
    exceptRequestId: draft.requestId ?? undefined,
  });
  const typed: Record<string, string> = {};
  const positions: Record<string, number> = {};
  payments.forEach((m, index) => {
    typed[m.wallet_id] = m.amount ?? "";
    positions[m.wallet_id] = index;
  });
  const split: Split = validateSplit(
    draft.amount ?? 0,
    // An unlimited wallet can give the whole amount.
    wallets.map((w) => ({ id: w.id, selectable: w.available ?? Number.MAX_SAFE_INTEGER })),
    typed,
  );
  const problems: Problem<string, RefundProblem>[] =
    split.kind === "split"
      ? []
      : Object.entries(split.errors).map(([key, error]) =>
          problem(key === "form" ? null : `payment_methods[${positions[key] ?? 0}].amount`, SPLIT_CODES[error]),
        );
  return { split, problems };
}

/**
 * The account paid (decision 0054): the profile's saved IBAN unless "another account" was chosen. Correcting
 * a request, the saved account is the request's own, kept on file (null). Without a saved IBAN, the typed one
 * is "remember"ed — saved to the profile when the request is sent — if "save this account" stayed ticked.
 */
async function ibanOf(
  { db, userId, draft }: StepContext,
  answers: { iban_choice?: string; iban?: string; save_iban?: "on" },
): Promise<{ iban: string | null; source: IbanSource } | { field: "iban" | "iban_choice"; message: string }> {
  const loaded = draft.requestId ? await loadRefundForEdit(db, userId, draft.requestId) : null;
  const onFile = loaded?.kind === "found" ? loaded.request.ibanLastFour : null;
  const saved = onFile ?? (await getPayoutDetails(db, userId)).iban;
  const resolved = resolvePayoutIban({ choice: answers.iban_choice, typed: answers.iban, saved });
  if (resolved.kind === "problem") return resolved;
  if (resolved.fromProfile) return { iban: onFile ? null : resolved.iban, source: "saved" };
  const remember = saved === null && answers.save_iban === "on";
  return { iban: resolved.iban, source: remember ? "remember" : "other" };
}

/** The split of the amount over the wallets, and the IBAN the rest is paid to. */
async function saveMethods(ctx: StepContext): Promise<StepResult> {
  const { db, userId, form, draft, go } = ctx;
  const submission = parseForm(form, refundMethodsSchema);
  if (submission.status !== "success") return refusedStep("methods", reply(submission));
  const { split, problems } = await splitOf(ctx, submission.value.payment_methods);
  const account = await ibanOf(ctx, submission.value);
  if (problems.length || "message" in account) {
    const refusal = refusalOf(problems, REFUND_WORDS);
    if ("message" in account) refusal.fieldErrors[account.field] = [account.message];
    return refusedStep("methods", reply(submission, refusal));
  }
  await saveDraftAnswers(
    db,
    userId,
    draft.id,
    { paymentMethods: split.kind === "split" ? split.parts : [], iban: account.iban, ibanSource: account.source },
    stepIndex("summary"),
  );
  return go("summary");
}
