import http from "node:http";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, expect, test } from "vitest";
import { testPort, startTestServer, stopTestServer, type TestServer } from "../support/test-server";

/**
 * The real server (server.ts on the production build) on a loopback port: headers, health,
 * cross-site posts, body size and rate limits. Needs `npm run build` first (npm test builds).
 */
const port = testPort(3200, 600);
let server: TestServer;
let base: string;

beforeAll(async () => {
  server = await startTestServer("test-server", port, { RATE_LIMIT_SENSITIVE: "3" });
  base = server.base;
}, 60_000);

afterAll(() => stopTestServer(server));

test("/healthz pings the database", async () => {
  const res = await fetch(`${base}/healthz`);
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(await res.json()).toEqual({ status: "ok", database: "sqlite" });
});

test("pages carry an enforced CSP whose nonce is fresh per response and used by every script", async () => {
  const first = await fetch(`${base}/login`);
  const second = await fetch(`${base}/login`);
  const csp = first.headers.get("content-security-policy") ?? "";
  expect(first.headers.get("content-security-policy-report-only")).toBeNull();
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeTruthy();
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toContain("unsafe-inline");
  expect(second.headers.get("content-security-policy")).not.toContain(nonce);
  const html = await first.text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  expect(first.headers.get("x-content-type-options")).toBe("nosniff");
  expect(first.headers.get("x-powered-by")).toBeNull();
});

test("responses are compressed when the browser accepts it", async () => {
  const res = await fetch(`${base}/login`, { headers: { "Accept-Encoding": "gzip" } });
  // undici decodes transparently but keeps the header.
  expect(res.headers.get("content-encoding")).toBe("gzip");
});

test("brotli answers use a 256 KB window, not brotli's 4 MB default, and decode to the page", async () => {
  const raw = (acceptEncoding: string) =>
    new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      http
        .get(`${base}/login`, { headers: { "Accept-Encoding": acceptEncoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
        })
        .on("error", reject);
    });
  const [br, plain] = await Promise.all([raw("br"), raw("identity")]);
  expect(br.encoding).toBe("br");
  expect(plain.encoding).toBeUndefined();
  // RFC 7932 §9.1: the stream's first bits give its window. 1 then 3 bits n ≠ 0 mean 2^(17 + n) bytes.
  const first = br.body[0]!;
  expect(first & 1).toBe(1);
  expect(17 + ((first >> 1) & 7)).toBe(18);
  // The same page (each answer has its own nonce and form keys, so compare what the reader sees).
  const h1 = (html: string) => /<h1\b[^>]*>([^<]*)</.exec(html)?.[1];
  const decoded = brotliDecompressSync(br.body).toString("utf8");
  expect(h1(decoded)).toBe("Connexion");
  expect(h1(plain.body.toString("utf8"))).toBe("Connexion");
  expect(br.body.length).toBeLessThan(plain.body.length / 3);
});

test("hashed assets are cached for a year, immutable", async () => {
  const html = await (await fetch(`${base}/login`)).text();
  const asset = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
  expect(asset).toBeTruthy();
  const res = await fetch(`${base}${asset}`);
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
});

test("a form post from another site is refused", async () => {
  const body = new URLSearchParams({ intent: "x" });
  const crossSite = await fetch(`${base}/logout`, {
    method: "POST",
    body,
    headers: { "Sec-Fetch-Site": "cross-site" },
    redirect: "manual",
  });
  expect(crossSite.status).toBe(403);
  const otherOrigin = await fetch(`${base}/logout`, {
    method: "POST",
    body,
    headers: { Origin: "https://evil.example" },
    redirect: "manual",
  });
  expect(otherOrigin.status).toBe(403);
  const sameOrigin = await fetch(`${base}/logout`, {
    method: "POST",
    body,
    headers: { Origin: base, "Sec-Fetch-Site": "same-origin" },
    redirect: "manual",
  });
  expect(sameOrigin.status).toBe(302);
});

test("an oversized body is refused before it is read", async () => {
  // Only the headers and a first kilobyte are sent: the answer must come without the server waiting for the
  // announced 13 MB (sending them all would race the server's early close and fail with EPIPE on a busy machine).
  const url = new URL(base);
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: "/logout",
        headers: {
          Origin: base,
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": String(13 * 1024 * 1024),
        },
      },
      (res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error("no answer before the body was sent")));
    req.on("error", (err: NodeJS.ErrnoException) =>
      err.code === "ECONNRESET" || err.code === "EPIPE" ? undefined : reject(err),
    );
    req.write("x".repeat(1024));
  });
  expect(status).toBe(413);
});

test("unknown paths answer 404; tampered cookies are ignored, not a 500", async () => {
  expect((await fetch(`${base}/nope`)).status).toBe(404);
  const res = await fetch(`${base}/cards`, {
    headers: { Cookie: "session=forged.value; other=%E0%A4%A" },
    redirect: "manual",
  });
  expect(res.status).toBe(302);
  expect(res.headers.get("location")).toBe("/login?redirectTo=%2Fcards");
});

test("request logs never contain the password or the query string", async () => {
  await fetch(`${base}/login?email=secret-person%40example.com`, { redirect: "manual" });
  await new Promise((r) => setTimeout(r, 100));
  expect(server.output()).toContain('"path":"/login"');
  expect(server.output()).not.toContain("secret-person");
  expect(server.output()).not.toContain("Demo-Portail-2026!");
});

test("sign-in posts are rate limited per address, with a French page", async () => {
  const post = () =>
    fetch(`${base}/login`, {
      method: "POST",
      body: new URLSearchParams({ email: "marie.martin@example.com", password: "Demo-Portail-2026!-wrong" }),
      headers: { Origin: base },
      redirect: "manual",
    });
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await post()).status);
  expect(statuses).toEqual([400, 400, 400, 429]);
  const limited = await post();
  expect(await limited.text()).toContain("Trop de tentatives");
  // Reading pages is not limited by the sign-in limit.
  expect((await fetch(`${base}/login`)).status).toBe(200);
});

test("SIGTERM stops the server cleanly", async () => {
  expect(await stopTestServer(server)).toBe(0);
  expect(server.output()).toContain("shutting down");
});
