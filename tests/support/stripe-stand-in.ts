import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the stand-in received it: Stripe bodies are form-encoded. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  form: Record<string, string>;
}

export type StandInAnswer = { status: number; body: unknown };

/**
 * A small stand-in for api.stripe.com on loopback, for tests: it records every request and answers
 * what `answer` says, as JSON with a Request-Id header, like Stripe does.
 */
export async function startStripeStandIn(
  answer: (method: string, path: string, form: Record<string, string>) => StandInAnswer,
): Promise<{ port: number; requests: RecordedRequest[]; close: () => Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (raw += chunk));
    req.on("end", () => {
      const [path = "", query = ""] = (req.url ?? "").split("?");
      const form = Object.fromEntries(new URLSearchParams(raw));
      requests.push({
        method: req.method ?? "",
        path,
        query: Object.fromEntries(new URLSearchParams(query)),
        headers: req.headers,
        form,
      });
      const { status, body } = answer(req.method ?? "", path, form);
      res.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${requests.length}` });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
