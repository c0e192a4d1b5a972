import type { Delivery, Messenger, OutgoingMessage } from "./port";

type Closable = Messenger & { close?(): void };

/**
 * The outbox's transport (decision 0062): e-mails to one messenger (SMTP, or the sandbox outbox), text messages to
 * another (Brevo, or the sandbox outbox). Each throws when its message cannot leave; the outbox decides what next.
 */
export class ChannelMessenger implements Messenger {
  readonly name: string;

  constructor(
    private readonly email: Closable,
    private readonly sms: Closable,
  ) {
    this.name = `${email.name}+${sms.name}`;
  }

  send(message: OutgoingMessage): Promise<Delivery | void> {
    return (message.channel === "sms" ? this.sms : this.email).send(message);
  }

  close(): void {
    this.email.close?.();
    this.sms.close?.();
  }
}
