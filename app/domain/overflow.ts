/** Spec 000 §2 "Balance overflow panel", §9: the amount a saved card may add, in whole euros. */
export const OVERFLOW_MIN_EUROS = 50;
export const OVERFLOW_MAX_EUROS = 150;
export const OVERFLOW_DEFAULT_EUROS = 50;
