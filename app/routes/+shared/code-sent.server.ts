import type { FlashMessage } from "~/.server/session";

/**
 * What the page after a code was sent says: "sent" (`sentMessage`, when the page says it), or, when the message
 * could not leave yet and waits in the outbox (decision 0042), that it will leave by itself — never a false "sent".
 * Its own module, reading no form: the sign-in and profile pages use it without the code step's form handling.
 */
export function codeSentFlash(
  result: { kind: string; delayed?: boolean } | null,
  sentMessage?: string,
): FlashMessage | null {
  if (result?.delayed) return { kind: "info", message: "auth.code.delayed" };
  return sentMessage ? { kind: "success", message: sentMessage } : null;
}
