/**
 * The bench's HTTP client (node:http, so that headers such as Origin are sent as given and bodies are not
 * decoded): every request goes to 127.0.0.1, on the port of the server it measures.
 */
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from "node:http";

export const HOST = "127.0.0.1";

/** A failure of the bench itself (a server that does not start, a page that does not answer): exit code 1. */
export class BenchError extends Error {}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export const benchAgent = new http.Agent({ keepAlive: true, maxSockets: 8 });

export function request(
  port: number,
  urlPath: string,
  options: { method?: string; headers?: OutgoingHttpHeaders; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: HOST, port, path: urlPath, method: options.method ?? "GET", headers: options.headers, agent: benchAgent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout on ${urlPath}`)));
    req.end(options.body);
  });
}

/** The path and query of a redirect's Location (absolute or not). */
export const pathOf = (location: string | undefined) => {
  if (!location) return "";
  const url = new URL(location, `http://${HOST}`);
  return url.pathname + url.search;
};
