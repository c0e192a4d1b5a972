import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** A mail an SMTP stand-in received: the envelope and the raw message (headers and text). */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpStandIn {
  port: number;
  url: string;
  /** Every mail received since it started (across restarts). */
  received: ReceivedMail[];
  /** Closes the server: nothing listens on the port any more (connections are refused). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

/**
 * A real SMTP server (the smtp-server package) on loopback, without TLS or authentication, that keeps what it
 * receives. `port` 0 takes a free one; `delayMs` makes each mail take that long to be accepted.
 */
export async function startSmtpStandIn(options: { port?: number; delayMs?: number } = {}): Promise<SmtpStandIn> {
  const received: ReceivedMail[] = [];
  let server: SMTPServer | null = null;
  let port = options.port ?? 0;
  const listen = async () => {
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        let raw = "";
        stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
        stream.on("end", () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          setTimeout(() => callback(), options.delayMs ?? 0);
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(port, "127.0.0.1", resolve));
    port = (smtp.server.address() as AddressInfo).port;
    server = smtp;
  };
  await listen();
  const standIn: SmtpStandIn = {
    get port() {
      return port;
    },
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    received,
    async stop() {
      const smtp = server;
      server = null;
      if (smtp) await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
    async start() {
      if (!server) await listen();
    },
  };
  return standIn;
}
