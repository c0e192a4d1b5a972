import type { FlashMessage } from "~/.server/session";
import type { Channel } from "~/.server/providers/messaging";

/**
 * What the page after a code was sent says: "sent" (`sentMessage`, when the page says it), or, when the message
 * could not leave yet and waits in the outbox (decision 0042), that the e-mail or the SMS will leave by itself —
 * never a false "sent"; or, when the SMS gateway refused the number for good (decision 0062), that no code will
 * come. Its own module, reading no form: the sign-in and profile pages use it without the code step's form handling.
 */
export function codeSentFlash(
  result: { kind: string; delayed?: boolean; refused?: boolean; channel?: Channel } | null,
  sentMessage?: string,
): FlashMessage | null {
  if (result?.refused) return { kind: "error", message: "sms.refused" };
  if (result?.delayed) return { kind: "info", message: result.channel === "sms" ? "sms.delayed" : "auth.code.delayed" };
  return sentMessage ? { kind: "success", message: sentMessage } : null;
}
