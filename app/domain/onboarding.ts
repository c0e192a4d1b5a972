/** Spec 001 §4, §9: the wait screen looks for the card every 4 s and gives up after more than 3 looks. */
export const CARD_POLL_INTERVAL_MS = 4000;
export const CARD_POLL_LIMIT = 3;

export type WaitOutcome = "ready" | "failed" | "waiting" | "nothingAsked";

/** What the wait screen shows on its `attempt`-th look (0 = just after the card was asked for). */
export function waitOutcome(state: { hasCard: boolean; cardInTheMaking: boolean; attempt: number }): WaitOutcome {
  if (state.hasCard) return "ready";
  if (state.attempt > CARD_POLL_LIMIT) return "failed";
  if (!state.cardInTheMaking) return "nothingAsked";
  return "waiting";
}

/** `?attempt=` from the URL: a small whole number, anything else counts as the first look. */
export function parseAttempt(value: string | null): number {
  if (value === null || !/^\d{1,2}$/.test(value)) return 0;
  return Number(value);
}
