import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A text message the stand-in accepted, as Brevo's API received it. */
export interface ReceivedSms {
  sender: string;
  recipient: string;
  content: string;
  type: string;
  unicodeEnabled: boolean;
}

/** How the stand-in answers the next requests: as Brevo does when all is well, with a 500, or never. */
export type BrevoMode = "accept" | "fail" | "hang";

export interface BrevoStandIn {
  /** Brevo's API address for BREVO_API_URL: http://127.0.0.1:<port>/v3. */
  url: string;
  apiKey: string;
  received: ReceivedSms[];
  /** Every request that reached the stand-in, accepted or not (its status). */
  requests: { path: string; status: number | "hung" }[];
  mode: BrevoMode;
  /** Numbers (digits, as Brevo receives them) Brevo refuses with its 400 error shape. */
  refused: Set<string>;
  /** Closes the server: nothing listens on the port (connections are refused); hung requests are cut. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

const SENDER = /^(?=.*[A-Za-z])[A-Za-z0-9]{1,11}$|^\d{1,15}$/;
const RECIPIENT = /^\d{6,15}$/;

/** Brevo's error body: `{ "code": …, "message": … }` (its API reference, "Errors"). */
function answer(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let raw = "";
  for await (const chunk of req) raw += (chunk as Buffer).toString("utf8");
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/** The body of POST /v3/transactionalSMS/send as Brevo documents it, or the reason it is not. */
function parseSms(body: unknown): ReceivedSms | string {
  if (typeof body !== "object" || body === null) return "body is not a JSON object";
  const b = body as Record<string, unknown>;
  if (typeof b.sender !== "string" || !SENDER.test(b.sender)) return "sender is invalid";
  if (typeof b.recipient !== "string" || !RECIPIENT.test(b.recipient)) return "recipient is invalid";
  if (typeof b.content !== "string" || b.content === "") return "content is missing";
  if (b.type !== undefined && b.type !== "transactional" && b.type !== "marketing") return "type is invalid";
  if (b.unicodeEnabled !== undefined && typeof b.unicodeEnabled !== "boolean") return "unicodeEnabled is invalid";
  return {
    sender: b.sender,
    recipient: b.recipient,
    content: b.content,
    type: (b.type as string | undefined) ?? "transactional",
    unicodeEnabled: b.unicodeEnabled === true,
  };
}

/**
 * A local stand-in of Brevo's transactional SMS API on loopback (decision 0062): POST /v3/transactionalSMS/send
 * with the `api-key` header. It checks the key (401 otherwise) and the body (400 `invalid_parameter` like Brevo),
 * refuses the numbers in `refused` (400, Brevo's shape), and otherwise answers as `mode` says: accepted (201 with a
 * messageId), HTTP 500, or never (the request hangs until the client gives up or the stand-in stops).
 */
export async function startBrevoStandIn(options: { apiKey?: string } = {}): Promise<BrevoStandIn> {
  const apiKey = options.apiKey ?? "xkeysib-stand-in-key";
  let server: Server | null = null;
  let port = 0;
  let nextId = 1;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? "";
    const status = await respond(req, res, path);
    standIn.requests.push({ path, status });
  };
  const respond = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<number | "hung"> => {
    if (req.method !== "POST" || path !== "/v3/transactionalSMS/send") {
      answer(res, 404, { code: "not_found", message: "Not found" });
      return 404;
    }
    if (req.headers["api-key"] !== apiKey) {
      answer(res, 401, { code: "unauthorized", message: "Key not found" });
      return 401;
    }
    const sms = parseSms(await readJson(req));
    if (typeof sms === "string") {
      answer(res, 400, { code: "invalid_parameter", message: sms });
      return 400;
    }
    if (standIn.refused.has(sms.recipient)) {
      answer(res, 400, { code: "invalid_parameter", message: "Invalid phone number" });
      return 400;
    }
    if (standIn.mode === "hang") return "hung";
    if (standIn.mode === "fail") {
      answer(res, 500, { code: "internal_error", message: "Internal server error" });
      return 500;
    }
    standIn.received.push(sms);
    answer(res, 201, { messageId: nextId++ });
    return 201;
  };
  const listen = async () => {
    const http = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => http.listen(port, "127.0.0.1", resolve));
    port = (http.address() as AddressInfo).port;
    server = http;
  };
  const standIn: BrevoStandIn = {
    get url() {
      return `http://127.0.0.1:${port}/v3`;
    },
    apiKey,
    received: [],
    requests: [],
    mode: "accept",
    refused: new Set(),
    async stop() {
      const running = server;
      server = null;
      if (!running) return;
      running.closeAllConnections();
      await new Promise<void>((resolve) => running.close(() => resolve()));
    },
    async start() {
      if (!server) await listen();
    },
  };
  await listen();
  return standIn;
}
