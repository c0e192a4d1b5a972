import nodemailer, { type Transporter } from "nodemailer";
import type { Delivery, Messenger, OutgoingMessage } from "./port";

export interface SmtpOptions {
  /** smtp://user:pass@host:port or smtps://… */
  url: string;
  from: string;
  /** Where text messages go while no SMS gateway is configured (the sandbox outbox in sandbox mode). */
  smsFallback?: Messenger;
}

/**
 * Sends e-mails through an SMTP server. Text messages need an SMS gateway, which this adapter is not. Short
 * timeouts: a server that does not answer fails the attempt within seconds (the outbox tries again later).
 */
export class SmtpMessenger implements Messenger {
  readonly name = "smtp";
  private readonly transport: Transporter;

  constructor(private readonly options: SmtpOptions) {
    this.transport = nodemailer.createTransport({
      url: options.url,
      connectionTimeout: 5_000,
      greetingTimeout: 5_000,
      socketTimeout: 20_000,
    });
  }

  async send(message: OutgoingMessage): Promise<Delivery | void> {
    if (message.channel === "sms") {
      if (!this.options.smsFallback) throw new Error("No SMS gateway is configured");
      return this.options.smsFallback.send(message);
    }
    await this.transport.sendMail({
      from: this.options.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
  }

  close(): void {
    this.transport.close();
  }
}
