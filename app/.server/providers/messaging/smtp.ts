import nodemailer, { type Transporter } from "nodemailer";
import type { Messenger, OutgoingMessage } from "./port";

export interface SmtpOptions {
  /** smtp://user:pass@host:port or smtps://… */
  url: string;
  from: string;
  /** Where text messages go while no SMS gateway is configured (the sandbox outbox in sandbox mode). */
  smsFallback?: Messenger;
}

/** Sends e-mails through an SMTP server. Text messages need an SMS gateway, which this adapter is not. */
export class SmtpMessenger implements Messenger {
  readonly name = "smtp";
  private readonly transport: Transporter;

  constructor(private readonly options: SmtpOptions) {
    this.transport = nodemailer.createTransport(options.url);
  }

  async send(message: OutgoingMessage): Promise<void> {
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
