import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the stand-in received it: Stripe bodies are form-encoded. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  form: Record<string, string>;
  /** True when Stripe would have replayed a stored answer (same Idempotency-Key): `answer` was not asked. */
  replayed: boolean;
}

export type StandInAnswer = { status: number; body: unknown };

export interface StripeStandIn {
  port: number;
  /** Every request received, replays included. */
  requests: RecordedRequest[];
  /**
   * From now on every answer (or those `only` picks) is sent `ms` later (0: at once again). The request is handled
   * when it arrives — what it creates is created, its answer stored under its key — only the answer is late: a
   * client that gives up first does not know what happened, as with a real provider that is slow to answer.
   */
  delayAnswers(ms: number, only?: (method: string, path: string) => boolean): void;
  close: () => Promise<void>;
}

/**
 * Which answers Stripe stores under an Idempotency-Key: those of a request its endpoint started to execute (a
 * success, a card decline, a 500). A request refused before (bad parameters, authentication, a missing object, a
 * rate limit) is not stored, so it can be sent again with the same key.
 */
const stored = (status: number) => status < 400 || status === 402 || status >= 500;

/**
 * A small stand-in for api.stripe.com on loopback, for tests: it records every request and answers what `answer`
 * says, as JSON with a Request-Id header, like Stripe does. Like Stripe, a POST with an `Idempotency-Key` already
 * seen gets the first answer again (header `Idempotent-Replayed: true`) without `answer` being asked, and the same
 * key with other parameters is refused (400 `idempotency_error`).
 */
export async function startStripeStandIn(
  answer: (method: string, path: string, form: Record<string, string>) => StandInAnswer,
): Promise<StripeStandIn> {
  const requests: RecordedRequest[] = [];
  const keys = new Map<string, { request: string; answer: StandInAnswer }>();
  let delayMs = 0;
  let delayOnly: ((method: string, path: string) => boolean) | undefined;
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (raw += chunk));
    req.on("end", () => {
      const [path = "", query = ""] = (req.url ?? "").split("?");
      const method = req.method ?? "";
      const form = Object.fromEntries(new URLSearchParams(raw));
      const key = method === "POST" ? req.headers["idempotency-key"] : undefined;
      const fingerprint = `${method} ${path} ${JSON.stringify(Object.entries(form).sort())}`;
      const earlier = typeof key === "string" ? keys.get(key) : undefined;
      let reply: StandInAnswer;
      let replayed = false;
      if (earlier && earlier.request === fingerprint) {
        reply = earlier.answer;
        replayed = true;
      } else if (earlier) {
        reply = {
          status: 400,
          body: {
            error: {
              type: "idempotency_error",
              message:
                "Keys for idempotent requests can only be used with the same parameters they were first used with.",
            },
          },
        };
      } else {
        reply = answer(method, path, form);
        if (typeof key === "string" && stored(reply.status)) keys.set(key, { request: fingerprint, answer: reply });
      }
      requests.push({
        method,
        path,
        query: Object.fromEntries(new URLSearchParams(query)),
        headers: req.headers,
        form,
        replayed,
      });
      const headers: Record<string, string> = {
        "Content-Type": "application/json",
        "Request-Id": `req_${requests.length}`,
      };
      if (replayed) headers["Idempotent-Replayed"] = "true";
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, headers);
        res.end(JSON.stringify(reply.body));
      };
      if (delayMs > 0 && (!delayOnly || delayOnly(method, path))) setTimeout(send, delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    delayAnswers: (ms, only) => {
      delayMs = ms;
      delayOnly = only;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Stripe's answer for what a stand-in does not serve: 404 `resource_missing`, as Stripe's API words it. */
export function resourceMissing(method: string, path: string): StandInAnswer {
  return {
    status: 404,
    body: {
      error: {
        type: "invalid_request_error",
        code: "resource_missing",
        message: `stand-in: nothing at ${method} ${path}`,
      },
    },
  };
}
