/** What the platform sends to people: e-mails and text messages. */
export type Channel = "email" | "sms";

export interface OutgoingMessage {
  channel: Channel;
  /** An e-mail address or an E.164 phone number. */
  to: string;
  subject: string;
  text: string;
}

export interface Messenger {
  readonly name: string;
  send(message: OutgoingMessage): Promise<void>;
}
