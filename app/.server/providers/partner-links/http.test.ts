import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createLogger } from "../../logger";
import { acceptableUrl, HttpPartnerLinks } from "./http";

/** A local stand-in for the partners' gateway: each test says how it answers; requests are recorded. */
let answer: (req: IncomingMessage, res: ServerResponse) => void;
const requests: { method?: string; url?: string; authorization?: string; body: string }[] = [];
let server: Server;
let baseUrl: string;
const logged: string[] = [];
const logger = createLogger("debug", (line) => logged.push(line));

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      requests.push({ method: req.method, url: req.url, authorization: req.headers.authorization, body });
      answer(req, res);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const json = (status: number, value: unknown) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(value));
};

const links = (timeoutMs = 2000) => new HttpPartnerLinks({ url: `${baseUrl}/v1/`, token: "t0ken", timeoutMs, logger });
const marie = { userId: "usr_marie", email: "marie@example.com" };

test("asks the partner's endpoint with the user and the bearer token, and answers its URL", async () => {
  answer = json(200, { url: "https://uggy.example/sso?ticket=abc" });
  requests.length = 0;
  expect(await links().link({ partner: "uggy", ...marie })).toEqual({
    kind: "url",
    url: "https://uggy.example/sso?ticket=abc",
  });
  expect(requests).toEqual([
    {
      method: "POST",
      url: "/v1/uggy/link",
      authorization: "Bearer t0ken",
      body: JSON.stringify({ user_id: "usr_marie", email: "marie@example.com" }),
    },
  ]);
});

test("Klaro answers no access unless has_access is true", async () => {
  answer = json(200, { url: "https://klaro.example/s", has_access: false });
  expect(await links().link({ partner: "klaro", ...marie })).toEqual({ kind: "noAccess" });
  answer = json(200, { url: "https://klaro.example/s" });
  expect(await links().link({ partner: "klaro", ...marie })).toEqual({ kind: "noAccess" });
  answer = json(200, { url: "https://klaro.example/s", has_access: true });
  expect(await links().link({ partner: "klaro", ...marie })).toEqual({ kind: "url", url: "https://klaro.example/s" });
});

test("an error status, a non-JSON answer, a missing or unsafe URL, or a timeout: failed, logged without the user", async () => {
  logged.length = 0;
  answer = json(503, { error: "down" });
  expect(await links().link({ partner: "joko", ...marie })).toEqual({ kind: "failed" });
  answer = (_req, res) => res.end("<html>");
  expect(await links().link({ partner: "joko", ...marie })).toEqual({ kind: "failed" });
  answer = json(200, { url: "javascript:alert(1)" });
  expect(await links().link({ partner: "joko", ...marie })).toEqual({ kind: "failed" });
  answer = json(200, { url: "http://evil.example/" });
  expect(await links().link({ partner: "joko", ...marie })).toEqual({ kind: "failed" });
  answer = json(200, null);
  expect(await links().link({ partner: "joko", ...marie })).toEqual({ kind: "failed" });
  answer = () => {}; // never answers
  expect(await links(200).link({ partner: "joko", ...marie })).toEqual({ kind: "failed" });
  expect(logged.length).toBe(6);
  expect(logged.join("\n")).not.toContain("marie");
});

test("only https URLs, or http on this machine", () => {
  expect(acceptableUrl("https://a.example/x")).toBe("https://a.example/x");
  expect(acceptableUrl("http://127.0.0.1:9/x")).toBe("http://127.0.0.1:9/x");
  expect(acceptableUrl("http://a.example/x")).toBeNull();
  expect(acceptableUrl("data:text/html,hi")).toBeNull();
  expect(acceptableUrl(42)).toBeNull();
});
