import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";

/**
 * How a passkey ceremony ended, for PasskeyButton: the page to go to, or a catalogue key saying why not
 * (with the minutes to wait when decision 0014's guesses are spent).
 */
export type CeremonyOutcome = { to: string } | { failure: string; minutes?: number };

/** What a passkey resource route answers (Contract P2, app/routes/+shared/passkey-ceremony.server.ts). */
interface CeremonyAnswer {
  options?: unknown;
  to?: string;
  error?: string;
  retryAt?: string;
}

/** A step of the ceremony that went wrong, with the catalogue key saying so. */
class CeremonyFailure extends Error {
  constructor(
    readonly key: string,
    readonly retryAt?: string,
  ) {
    super(key);
  }
}

async function post(action: string, fields: Record<string, string>): Promise<CeremonyAnswer> {
  const response = await fetch(action, {
    method: "POST",
    credentials: "same-origin",
    headers: { Accept: "application/json" },
    body: new URLSearchParams(fields),
  }).catch(() => null);
  if (!response) throw new CeremonyFailure("passkeys.errors.network");
  const answer = (await response.json().catch(() => null)) as CeremonyAnswer | null;
  if (answer && typeof answer.error === "string") throw new CeremonyFailure(answer.error, answer.retryAt);
  if (!response.ok || !answer) throw new CeremonyFailure("passkeys.button.failed");
  return answer;
}

/** The browser's own errors: the person closing its prompt is said apart from the rest. */
function failureOf(error: unknown): CeremonyFailure {
  if (error instanceof CeremonyFailure) return error;
  const name = error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || name === "AbortError") return new CeremonyFailure("passkeys.errors.cancelled");
  if (name === "InvalidStateError") return new CeremonyFailure("passkeys.errors.duplicate");
  return new CeremonyFailure("passkeys.button.failed");
}

/**
 * One ceremony against a feature's resource route (Contract P2): its options, the browser's prompt (the
 * device's unlock), then the answer checked by the server. Loaded by PasskeyButton on the click only, with
 * `@simplewebauthn/browser`, so that no page carries them before a person asks for a passkey.
 */
export async function runPasskeyCeremony(
  action: string,
  ceremony: "register" | "authenticate",
  fields: Record<string, string>,
): Promise<CeremonyOutcome> {
  try {
    const { options, to: elsewhere } = await post(action, { ...fields, step: "options" });
    // The feature sent the person elsewhere (the waiting sign-in expired): followed as a success is.
    if (typeof elsewhere === "string") return { to: elsewhere };
    const answer =
      ceremony === "register"
        ? await startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON })
        : await startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON });
    const { to } = await post(action, { ...fields, step: "verify", answer: JSON.stringify(answer) });
    if (typeof to !== "string") throw new CeremonyFailure("passkeys.button.failed");
    return { to };
  } catch (error) {
    const failed = failureOf(error);
    if (!failed.retryAt) return { failure: failed.key };
    const minutes = Math.max(1, Math.ceil((new Date(failed.retryAt).getTime() - Date.now()) / 60_000));
    return { failure: failed.key, minutes };
  }
}
