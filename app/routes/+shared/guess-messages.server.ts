import { differenceInMinutes } from "date-fns";
import { translatorFor } from "~/i18n";
import resources from "~/i18n/catalogues";
import type { CodeRefusal } from "~/.server/services/codes";

/**
 * The words for a guess refused while the account's guesses wait (decision 0014). They carry a number,
 * so they are made here, in French, with the same look-up pages are rendered with; the forms show an
 * error that is not a catalogue key as it is.
 */
const t = translatorFor(resources.fr.translation);

function waitText(retryAt: Date, now: Date): string {
  const minutes = Math.max(1, differenceInMinutes(retryAt, now, { roundingMethod: "ceil" }));
  return minutes === 1 ? t("errors.guessWait.one") : t("errors.guessWait.other", { count: minutes });
}

/** "Trop d’essais de mot de passe pour ce compte. Par sécurité, réessayez dans 3 minutes". */
export function passwordLockedMessage(retryAt: Date, now = new Date()): string {
  return t("errors.passwordGuessesLocked", { wait: waitText(retryAt, now) });
}

/** The catalogue key telling the person why a code was refused (the wait has its own words, below). */
const CODE_REFUSAL_KEYS: Record<CodeRefusal["kind"], string> = {
  invalid: "errors.codeInvalid",
  expired: "errors.codeExpired",
  exhausted: "errors.codeExhausted",
  missing: "errors.codeMissing",
  locked: "errors.codeGuessesLocked",
};

/** Why a code was refused: a catalogue key, or the words saying how long the account's codes wait. */
export function codeRefusalMessage(refusal: CodeRefusal, now = new Date()): string {
  if (refusal.kind !== "locked") return CODE_REFUSAL_KEYS[refusal.kind];
  return refusal.retryAt > now
    ? t("errors.codeGuessesLockedFor", { wait: waitText(refusal.retryAt, now) })
    : CODE_REFUSAL_KEYS.locked;
}
