import { translatorFor } from "~/i18n";
import resources from "~/locales";
import type { DB } from "~/.server/db";
import { VERIFY_ERROR_KEYS, type VerifyResult } from "~/.server/services/codes";
import { guessesLockedUntil } from "~/.server/services/guess-limits";

/**
 * The words for a guess refused while the account's guesses wait (decision 0014). They carry a number,
 * so they are made here, in French, with the same look-up pages are rendered with; the forms show an
 * error that is not a catalogue key as it is.
 */
const t = translatorFor(resources.fr.translation);

function waitText(retryAt: Date, now: Date): string {
  const minutes = Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 60_000));
  return minutes === 1 ? t("errors.guessWait.one") : t("errors.guessWait.other", { count: minutes });
}

/** "Trop d’essais de mot de passe pour ce compte. Par sécurité, réessayez dans 3 minutes". */
export function passwordLockedMessage(retryAt: Date, now = new Date()): string {
  return t("errors.passwordGuessesLocked", { wait: waitText(retryAt, now) });
}

/** Why a code was refused: a catalogue key, or the words saying how long codes wait. */
export async function verifyErrorMessage(db: DB, userId: string, result: Exclude<VerifyResult, "ok">, now = new Date()): Promise<string> {
  if (result !== "locked") return VERIFY_ERROR_KEYS[result];
  const retryAt = await guessesLockedUntil(db, "code", userId, now);
  return retryAt ? t("errors.codeGuessesLockedFor", { wait: waitText(retryAt, now) }) : VERIFY_ERROR_KEYS.locked;
}
