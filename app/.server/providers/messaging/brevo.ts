import { BrevoClient, BrevoError } from "@getbrevo/brevo";
import { smsEncoding, smsNumberKind, smsText } from "~/domain/sms";
import { RefusedMessageError, type Messenger, type OutgoingMessage } from "./port";

export interface BrevoSmsOptions {
  apiKey: string;
  /** Brevo's API address, https://api.brevo.com/v3 (a local stand-in in tests). */
  baseUrl: string;
  /** The alphanumeric sender id shown on the phone (≤ 11 characters, checked by env.ts). */
  sender: string;
  /** How long one message may wait for Brevo's answer. */
  timeoutMs: number;
}

/**
 * Text messages through Brevo's transactional SMS (decision 0062), with Brevo's official SDK: POST
 * /transactionalSMS/send (the SDK's `sendAsyncTransactionalSms`; the older /transactionalSMS/sms is deprecated).
 * One attempt a call, with a short timeout and none of the SDK's own retries: the persistent outbox tries again
 * (10 s, 30 s, 1 min, 5 min, then every 15 min) until the code expires.
 *
 * A 400 is Brevo refusing this message itself (most often a number that cannot receive text messages): trying again
 * would be refused again, so it is a RefusedMessageError, given up at once. Anything else (no answer, 5xx, 401,
 * 402 out of credits, 429) fails this attempt only. Errors name the status and Brevo's error code, never the
 * number or the text, which hold personal data and the code itself.
 */
export class BrevoSmsMessenger implements Messenger {
  readonly name = "brevo";
  private readonly client: BrevoClient;

  constructor(private readonly options: BrevoSmsOptions) {
    this.client = new BrevoClient({
      apiKey: options.apiKey,
      baseUrl: options.baseUrl,
      // The SDK's own timer aborts with a bare string that its fetcher reports as an unknown error, not as its
      // BrevoTimeoutError: each call carries its own deadline (below), and this one, later, never fires first.
      timeoutInSeconds: options.timeoutMs / 1000 + 1,
      maxRetries: 0,
    });
  }

  async send(message: OutgoingMessage): Promise<void> {
    if (message.channel !== "sms") throw new Error("The Brevo adapter sends text messages only");
    // Brevo would refuse a number that is not E.164; the settings only store such numbers, so this is a bug.
    if (smsNumberKind(message.to) === "invalid") throw new RefusedMessageError("not an E.164 number");
    const content = smsText(message.text);
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    try {
      await this.client.transactionalSms.sendAsyncTransactionalSms(
        {
          sender: this.options.sender,
          // Brevo's documented form: the country code and number, digits only.
          recipient: message.to.slice(1),
          content,
          type: "transactional",
          unicodeEnabled: smsEncoding(content) === "ucs2",
          tag: "code",
        },
        { abortSignal: deadline },
      );
    } catch (err) {
      if (deadline.aborted) throw new Error(`Brevo did not answer within ${this.options.timeoutMs} ms`);
      throw brevoFailure(err);
    }
  }
}

/** Brevo's error code from its JSON body (`{ "code": "invalid_parameter", "message": … }`), when it is a plain word. */
function brevoCode(body: unknown): string {
  const code = typeof body === "object" && body !== null ? (body as { code?: unknown }).code : undefined;
  return typeof code === "string" && /^[a-z_]{1,40}$/.test(code) ? code : "no code";
}

/** The network error's own code (ECONNREFUSED, ECONNRESET…) buried in fetch's causes, when there is one. */
function networkCode(err: unknown): string | undefined {
  for (let cause: unknown = err, depth = 0; cause instanceof Error && depth < 4; depth++) {
    const code = (cause as Error & { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z_]{3,30}$/.test(code)) return code;
    cause = cause.cause;
  }
  return undefined;
}

function brevoFailure(err: unknown): Error {
  if (err instanceof BrevoError && err.statusCode === 400)
    return new RefusedMessageError(`Brevo refused the text message (400 ${brevoCode(err.body)})`);
  if (err instanceof BrevoError && err.statusCode !== undefined)
    return new Error(`Brevo answered ${err.statusCode} (${brevoCode(err.body)})`);
  const code = networkCode(err);
  return new Error(`Brevo could not be reached${code ? `: ${code}` : ""}`);
}
