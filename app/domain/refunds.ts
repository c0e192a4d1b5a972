import { REFUND_MAX_AMOUNT } from "./amount-bounds";
import { isCalendarDay } from "./calendar";
import type { IbanProblem } from "./iban";
import { problem, type Problem } from "./problems";

/**
 * The refund wizard's steps and the mobility sub-flow (spec 001 §2.6), shared by the server flow and the
 * components, and the refund rules that need no database: the caps, the wallet types that may pay a type,
 * and the checks of an amount, a ticket date and a split over wallets. Amounts are cents; dates are YYYY-MM-DD.
 */

/** The steps in order; the index is what a draft records as the furthest step reached (0 = type). */
export const REFUND_STEPS = ["type", "preamble", "mobility", "ticket", "details", "methods", "summary"] as const;
export type RefundStep = (typeof REFUND_STEPS)[number];

export const stepIndex = (step: RefundStep): number => REFUND_STEPS.indexOf(step);

export const isRefundStep = (value: unknown): value is RefundStep =>
  typeof value === "string" && (REFUND_STEPS as readonly string[]).includes(value);

/** What the file input offers; the type is checked from the content on the server. */
export const RECEIPT_ACCEPT = ".pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg";

/**
 * A feature that gates a mobility subtype (spec 001 §2.6, §6): an allowance feature (true, or a list of
 * group ids the person must belong to) or an expense-request feature.
 */
export type MobilityGate =
  | { area: "allowances"; feature: "carpooling" | "bicycle" | "subscription" }
  | { area: "expenseRequests"; feature: "mobility-electric-vehicle-recharge" | "fuel-expenses" };

export interface MobilitySubtype {
  id: string;
  /** Offered only when this feature is on. */
  gate: MobilityGate | null;
  /** The allowance wizard it opens (`/plans/allowances/new?type=…`); null: the classic flow continues here. */
  allowance: "carpooling" | "bicycle" | "subscription" | null;
}

/** The groups and their subtypes, in the spec's order. */
export const MOBILITY_GROUPS: readonly { id: string; subtypes: readonly MobilitySubtype[] }[] = [
  {
    id: "public_transport",
    subtypes: [
      {
        id: "subscription",
        gate: { area: "allowances", feature: "subscription" },
        allowance: "subscription",
      },
      { id: "subscription_ticket", gate: null, allowance: null },
    ],
  },
  {
    id: "bicycle",
    subtypes: [
      { id: "ikv", gate: { area: "allowances", feature: "bicycle" }, allowance: "bicycle" },
      { id: "bicycle_shop", gate: null, allowance: null },
      { id: "bicycle_service", gate: null, allowance: null },
    ],
  },
  {
    id: "carpooling",
    subtypes: [
      { id: "carpooling", gate: { area: "allowances", feature: "carpooling" }, allowance: "carpooling" },
      { id: "carpooling_app", gate: null, allowance: null },
    ],
  },
  {
    id: "vehicles",
    subtypes: [
      {
        id: "electric_vehicle_recharge",
        gate: { area: "expenseRequests", feature: "mobility-electric-vehicle-recharge" },
        allowance: null,
      },
      { id: "carsharing", gate: null, allowance: null },
      { id: "fuel_expenses", gate: { area: "expenseRequests", feature: "fuel-expenses" }, allowance: null },
    ],
  },
];

type FeatureArea = Record<string, boolean | string[] | undefined>;

/** Whether a gate is open for this person: the feature is true, or lists one of their groups. */
export function gateOpen(
  gate: MobilityGate | null,
  features: { allowances: FeatureArea; expenseRequests: FeatureArea },
  groupIds: readonly string[],
): boolean {
  if (!gate) return true;
  const value = features[gate.area][gate.feature];
  if (value === true) return true;
  return Array.isArray(value) && value.some((id) => groupIds.includes(id));
}

/** The subtypes this person may choose, by group (groups left empty are dropped). */
export function mobilityChoices(
  features: { allowances: FeatureArea; expenseRequests: FeatureArea },
  groupIds: readonly string[],
) {
  return MOBILITY_GROUPS.map((g) => ({
    id: g.id,
    subtypes: g.subtypes.filter((s) => gateOpen(s.gate, features, groupIds)),
  })).filter((g) => g.subtypes.length > 0);
}

export function findMobilitySubtype(id: string): { group: string; subtype: MobilitySubtype } | null {
  for (const group of MOBILITY_GROUPS) {
    const subtype = group.subtypes.find((s) => s.id === id);
    if (subtype) return { group: group.id, subtype };
  }
  return null;
}

/** A platform error key (`payment_methods.0.amount`) as conform names the field (`payment_methods[0].amount`). */
export function fieldNameOf(key: string): string {
  return key.replace(/\.(\d+)(?=\.|$)/g, "[$1]");
}

// ---------------------------------------------------------------------------------------------
// Caps and rules of a request (spec 001 §2.6, §5, §9)
// ---------------------------------------------------------------------------------------------

/** The employee's list shows this many requests per "Voir plus". */
export const EXPENSE_REQUESTS_PAGE_SIZE = 10;
/**
 * A hand-typed page number of the list is capped here: each page shows all the pages before it, so its cost is its
 * number of rows; at 20 (200 requests, years of them) `page=1000000` reads no more than page 20 does.
 */
export const EXPENSE_REQUESTS_MAX_PAGE = 20;
/** A refund is paid within 7 working days of its approval (spec 001 §9). */
export const PAYOUT_WORKING_DAYS = 7;
/** Reasons are shown to the employee as written; a few hundred characters are plenty. */
export const REVIEW_REASON_MAX = 500;

/** The wallet types that may pay an expense type: the same type, and the mobility wallet for mobility costs. */
export function walletTypesFor(expenseType: string): string[] {
  if (expenseType === "meal") return [];
  if (expenseType === "fuel_expenses" || expenseType === "electric_vehicle_recharge") return ["mobility"];
  return [expenseType];
}

/** A whole number of cents that JavaScript counts exactly. */
export const isCents = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n);

/** What can be wrong with a request's amount. */
export type AmountProblem = "amountInvalid" | "amountPositive" | "amountTooBig";
/** What can be wrong with a ticket date. */
export type TicketDateProblem = "ticketDateRequired" | "ticketDateInvalid" | "ticketDateFuture";
/** What can be wrong with the split of a request over its wallets. */
export type SplitProblem =
  | "paymentMethodsRequired"
  | "walletNotEligible"
  | "paymentMethodAmountPositive"
  | "paymentMethodOverAvailable"
  | "paymentMethodsTotal";

/**
 * Every code a refund request can be refused with (decision 0051): the domain's checks here, the IBAN's,
 * and those the service checks against the database (type, partner, sworn statement, receipts). The
 * refund routes word each one through their one table (routes/refunds/problems.server.ts).
 */
export type RefundProblem =
  | AmountProblem
  | TicketDateProblem
  | SplitProblem
  | IbanProblem
  | "typeRequired"
  | "partnerRequired"
  | "partnerDisabled"
  | "swornStatementRequired"
  | "swornNameRequired"
  | "swornNameMismatch"
  | "mediaRequired"
  | "mediaTwice"
  | "mediaNotFound"
  | "mediaDuplicate";

/** The fields of a request a problem belongs to, as the platform names them (`payment_methods.0.amount`). */
export type RefundField =
  | "type"
  | "partner_id"
  | "ticket_date"
  | "amount"
  | "payment_methods"
  | `payment_methods.${number}.amount`
  | "iban"
  | "sworn_statement"
  | "sworn_name"
  | "media";

/** A refused refund request's problem: its code, at the platform's field. */
export type RefundRefusal = Problem<RefundField, RefundProblem>;

/** What is wrong with a request's amount, or null. */
export function amountProblem(amount: unknown): AmountProblem | null {
  if (!isCents(amount)) return "amountInvalid";
  if (amount <= 0) return "amountPositive";
  if (amount > REFUND_MAX_AMOUNT) return "amountTooBig";
  return null;
}

/** What is wrong with a ticket date, given today in Paris, or null. */
export function ticketDateProblem(day: string, today: string): TicketDateProblem | null {
  if (!day) return "ticketDateRequired";
  if (!isCalendarDay(day)) return "ticketDateInvalid";
  if (day > today) return "ticketDateFuture";
  return null;
}

/**
 * The split's problems, in the order the form shows them (spec 001 §2.6 "Methods step", §5): at least one
 * wallet, each once and eligible (`wallets`: those this request may use, with what each can give, null:
 * unlimited), a positive amount within what it can give, and, when all of that and the amount hold, a
 * total equal to the amount.
 */
export function splitProblems(
  methods: readonly { walletId: string; amount: unknown }[],
  wallets: readonly { id: string; available: number | null }[],
  amount: unknown,
): Problem<RefundField, SplitProblem>[] {
  if (methods.length === 0) return [problem("payment_methods", "paymentMethodsRequired")];
  const problems: Problem<RefundField, SplitProblem>[] = [];
  const seen = new Set<string>();
  let total = 0;
  let notEligibleSaid = false;
  methods.forEach((m, index) => {
    const field = `payment_methods.${index}.amount` as const;
    const wallet = wallets.find((w) => w.id === m.walletId);
    if (!wallet || seen.has(m.walletId)) {
      if (!notEligibleSaid) problems.push(problem("payment_methods", "walletNotEligible"));
      notEligibleSaid = true;
      problems.push(problem(field, "walletNotEligible"));
      return;
    }
    seen.add(m.walletId);
    if (!isCents(m.amount) || m.amount <= 0) {
      problems.push(problem(field, "paymentMethodAmountPositive"));
      return;
    }
    if (wallet.available !== null && m.amount > wallet.available)
      problems.push(problem(field, "paymentMethodOverAvailable"));
    total += m.amount;
  });
  if (problems.length === 0 && amountProblem(amount) === null && total !== amount)
    problems.push(problem("payment_methods", "paymentMethodsTotal"));
  return problems;
}
