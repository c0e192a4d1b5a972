/** What the platform sends to people: e-mails and text messages. */
export type Channel = "email" | "sms";

export interface OutgoingMessage {
  channel: Channel;
  /** An e-mail address or an E.164 phone number. */
  to: string;
  subject: string;
  text: string;
  /** When the message is worth nothing any more (the end of the code or link it carries): never sent after. */
  expiresAt?: Date;
}

/**
 * `sent`: handed over (to the SMTP server, the SMS gateway, the sandbox outbox…). `queued`: it could not leave yet;
 * it is kept in the persistent outbox and sent as soon as possible (decision 0042). `refused`: the gateway refused
 * it for good (a number that cannot receive text messages, decision 0062); it is given up. Nothing (void) means sent.
 */
export type Delivery = "sent" | "queued" | "refused";

export interface Messenger {
  readonly name: string;
  send(message: OutgoingMessage): Promise<Delivery | void>;
}

/**
 * A refusal that will never turn into a delivery (the gateway says the number cannot receive text messages): the
 * outbox gives the message up at once instead of trying it again (decision 0062). Its message names the refusal's
 * kind, never the recipient or the text.
 */
export class RefusedMessageError extends Error {
  override readonly name = "RefusedMessageError";
}
