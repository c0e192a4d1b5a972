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
 * `sent`: handed over (to the SMTP server, the sandbox outbox…). `queued`: it could not leave yet; it is kept in
 * the persistent outbox and sent as soon as possible (decision 0042). Nothing (void) means sent.
 */
export type Delivery = "sent" | "queued";

export interface Messenger {
  readonly name: string;
  send(message: OutgoingMessage): Promise<Delivery | void>;
}
