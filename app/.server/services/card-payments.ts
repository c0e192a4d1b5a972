import type { Platform } from "../platform";
import {
  capture,
  refundFromMerchant,
  reverse,
  type CaptureResult,
  type RefundResult,
  type ReverseResult,
} from "./authorisation-lifecycle";
import { authorise, type AuthoriseRequest, type AuthoriseResult } from "./authorisations";

/**
 * The card payment orchestrator's contract (issue 17, owned by the terminal's work): the webhook's branch carries
 * only this minimal version — decide and write (`authorise`), nothing settled yet — which the full one replaces.
 */
export type CardPaymentDeps = Pick<Platform, "db" | "payments" | "messenger" | "push" | "logger">;

/** Decides and writes (authorise), then `settled` charges the overflow and delivers the notification. */
export async function payWithCard(
  deps: CardPaymentDeps,
  request: AuthoriseRequest,
): Promise<{ result: AuthoriseResult; settled: Promise<void> }> {
  const result = await authorise(deps, request);
  return { result, settled: Promise.resolve() };
}

export function captureCardPayment(
  deps: CardPaymentDeps,
  authorizationId: string,
  amount: number,
): Promise<CaptureResult> {
  return capture(deps, authorizationId, amount);
}

export function reverseCardPayment(deps: CardPaymentDeps, authorizationId: string): Promise<ReverseResult> {
  return reverse(deps, authorizationId);
}

export function refundCardPayment(
  deps: CardPaymentDeps,
  authorizationId: string,
  amount: number,
  reference: string,
): Promise<RefundResult> {
  return refundFromMerchant(deps, authorizationId, amount, reference);
}
