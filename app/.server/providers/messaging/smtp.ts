import nodemailer, { type Transporter } from "nodemailer";
import type { Messenger, OutgoingMessage } from "./port";

export interface SmtpOptions {
  /** smtp://user:pass@host:port or smtps://… */
  url: string;
  from: string;
}

/**
 * Sends e-mails through an SMTP server; text messages go to the SMS gateway (ChannelMessenger). Short timeouts: a
 * server that does not answer fails the attempt within seconds (the outbox tries again later).
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

  async send(message: OutgoingMessage): Promise<void> {
    if (message.channel !== "email") throw new Error("The SMTP adapter sends e-mails only");
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
