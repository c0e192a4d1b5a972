import type { RefundProblem } from "~/domain/refunds";
import { IBAN_WORDS, type ProblemWords } from "~/routes/+shared/problems.server";

/**
 * The words of every code a refund request is refused with (decision 0051), the one table the refund
 * routes word them through (`refusalOf`): the service's refusals when a request is sent, and the wizard's
 * own early checks of a step. A code without words, or words not in the catalogue, fails the typecheck.
 */
export const REFUND_WORDS: ProblemWords<RefundProblem> = {
  typeRequired: "refunds.errors.typeRequired",
  partnerRequired: "refunds.errors.partnerRequired",
  partnerDisabled: "refunds.errors.partnerDisabled",
  ticketDateRequired: "refunds.errors.ticketDateRequired",
  ticketDateInvalid: "refunds.errors.ticketDateInvalid",
  ticketDateFuture: "refunds.errors.ticketDateFuture",
  amountInvalid: "refunds.errors.amountInvalid",
  amountPositive: "refunds.errors.amountPositive",
  amountTooBig: "refunds.errors.amountTooBig",
  paymentMethodsRequired: "refunds.errors.paymentMethodsRequired",
  paymentMethodAmountPositive: "refunds.errors.paymentMethodAmountPositive",
  paymentMethodOverAvailable: "refunds.errors.paymentMethodOverAvailable",
  paymentMethodsTotal: "refunds.errors.paymentMethodsTotal",
  walletNotEligible: "refunds.errors.walletNotEligible",
  ...IBAN_WORDS,
  swornStatementRequired: "refunds.errors.swornStatementRequired",
  swornNameRequired: "refunds.errors.swornNameRequired",
  swornNameMismatch: "refunds.errors.swornNameMismatch",
  mediaRequired: "refunds.errors.mediaRequired",
  mediaTwice: "refunds.errors.mediaTwice",
  mediaNotFound: "refunds.errors.mediaNotFound",
  mediaDuplicate: "refunds.errors.mediaDuplicate",
};
