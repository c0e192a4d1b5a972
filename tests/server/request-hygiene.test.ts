import { afterAll, beforeAll, expect, test } from "vitest";
import { testPort, startTestServer, stopTestServer, type TestServer } from "../support/test-server";

/**
 * Issue 11, findings 3, 4, 6 and 8, on the real built server: nothing the portal renders is cacheable,
 * a link's token never reaches the request log, and requests the portal's pages never send (other
 * methods, other body types, unreadable forms) end in a clear French 4xx with nothing changed.
 */
const port = testPort(4000, 500);
let server: TestServer;
let base: string;
let claire: string;

const CLAIRE = "claire.petit@example.com";
const PASSWORD = "Demo-Portail-2026!";

/** Signs claire in (no second factor) and returns her session cookie. */
async function signIn(email: string): Promise<string> {
  const res = await fetch(`${base}/login`, {
    method: "POST",
    body: new URLSearchParams({ email, password: PASSWORD }),
    headers: { Origin: base },
    redirect: "manual",
  });
  expect(res.status).toBe(302);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("session="));
  expect(cookie).toBeTruthy();
  return cookie!.split(";")[0]!;
}

beforeAll(async () => {
  server = await startTestServer("test-hygiene", port, { RATE_LIMIT_SENSITIVE: "1000" });
  base = server.base;
  claire = await signIn(CLAIRE);
}, 60_000);

afterAll(() => stopTestServer(server));

const get = (path: string, cookie?: string) =>
  fetch(`${base}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });

test("finding 3: pages, their .data requests, redirects and error pages are never stored", async () => {
  const cardPage = (await get("/cards", claire)).headers.get("location") ?? "";
  expect(cardPage).toMatch(/^\/cards\/[^/]+$/);
  const paths = [
    cardPage,
    `${cardPage}.data`,
    `${cardPage}/reveal`,
    `${cardPage}/reveal.data`,
    "/settings/profile",
    "/settings/profile.data",
    "/wallets",
    "/cards",
  ];
  for (const path of paths) {
    const res = await get(path, claire);
    expect(res.status, path).toBeLessThan(500);
    expect(res.headers.get("cache-control"), path).toBe("no-store");
  }
  for (const path of [
    "/login",
    "/login.data",
    "/login/code",
    "/dev/outbox",
    "/user-confirmation?email=a%40b.c&code=123456",
    "/reset-password/x",
    "/activate/x",
    "/nope",
    "/lost-password",
  ]) {
    const res = await get(path);
    expect(res.headers.get("cache-control"), path).toBe("no-store");
  }
  // Only one Cache-Control, even where a route sets its own (the public catalogue keeps its caching).
  const catalogue = await get("/locales/fr");
  expect(catalogue.headers.get("cache-control")).toBe("public, max-age=300, stale-while-revalidate=86400");
});

test("finding 4: a reset link's token is not in the request log, on the page or its data", async () => {
  const sent = await fetch(`${base}/lost-password`, {
    method: "POST",
    body: new URLSearchParams({ email: CLAIRE }),
    headers: { Origin: base },
    redirect: "manual",
  });
  expect(sent.status).toBeLessThan(400);
  let token: string | undefined;
  for (let i = 0; i < 50 && !token; i++) {
    const outbox = await (await get("/dev/outbox")).text();
    token = /\/reset-password\/([A-Za-z0-9_-]{16,})/.exec(outbox)?.[1];
    if (!token) await new Promise((r) => setTimeout(r, 100));
  }
  expect(token).toBeTruthy();
  expect((await get(`/reset-password/${token}?email=${encodeURIComponent(CLAIRE)}`)).status).toBe(200);
  expect((await get(`/reset-password/${token}.data?email=${encodeURIComponent(CLAIRE)}`)).status).toBe(200);
  await fetch(`${base}/reset-password/${token}`, {
    method: "PUT",
    body: "x=1",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  await fetch(`${base}/activate/${token}`, {
    method: "POST",
    body: "{}",
    headers: { "Content-Type": "application/json" },
  });
  await new Promise((r) => setTimeout(r, 200));
  const log = server.output();
  expect(log).toContain('"path":"/reset-password/:token"');
  expect(log).toContain('"path":"/reset-password/:token.data"');
  expect(log).toContain('"path":"/activate/:token"');
  expect(log).not.toContain(token!);
});

test("finding 6: other body types, and files where no route takes them, are refused with 415, in French, and nothing runs", async () => {
  const bodies: [string | undefined, string][] = [
    ["application/json", JSON.stringify({ email: CLAIRE, password: PASSWORD })],
    ["text/plain", `email=${CLAIRE}`],
    ["application/xml", "<login><email>a</email></login>"],
    ["text/xml", "<?xml version='1.0'?><x/>"],
    [undefined, "email=x"],
  ];
  for (const path of ["/login", "/login.data", "/logout", "/cards/x/freeze", "/settings/profile", "/nope"]) {
    for (const [type, body] of bodies) {
      const res = await fetch(`${base}${path}`, {
        method: "POST",
        body: new TextEncoder().encode(body),
        headers: { Origin: base, Cookie: claire, ...(type ? { "Content-Type": type } : {}) },
        redirect: "manual",
      });
      expect(res.status, `${type} on ${path}`).toBe(415);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain('lang="fr"');
      expect(html).toContain("Format non pris en charge");
    }
  }
  // Files are taken only where a route takes them (app/routes/+shared/upload-routes.ts): a multipart
  // body anywhere else, whole, cut short or without its boundary, is refused unread.
  const truncated = `--XX\r\nContent-Disposition: form-data; name="email"\r\n\r\n${CLAIRE}`;
  const whole = `${truncated}\r\n--XX--\r\n`;
  for (const path of ["/login", "/login.data", "/settings/profile", "/lost-password"]) {
    for (const body of [truncated, whole]) {
      const res = await fetch(`${base}${path}`, {
        method: "POST",
        body,
        headers: { Origin: base, Cookie: claire, "Content-Type": "multipart/form-data; boundary=XX" },
        redirect: "manual",
      });
      expect(res.status, path).toBe(415);
      if (!path.endsWith(".data")) expect(await res.text()).toContain("Format non pris en charge");
    }
  }
  const noBoundary = await fetch(`${base}/login`, {
    method: "POST",
    body: "x",
    headers: { Origin: base, "Content-Type": "multipart/form-data" },
  });
  expect(noBoundary.status).toBe(415);
  // The session still works: the refused logout did not end it.
  expect((await get("/settings/profile", claire)).status).toBe(200);
  expect(server.output()).not.toContain("Failed to parse body as FormData");
});

test("findings 6 and 8: PUT, PATCH, DELETE, TRACE and other methods are 405 in French and run no action", async () => {
  const cardPage = (await get("/cards", claire)).headers.get("location")!;
  for (const method of ["PUT", "PATCH", "DELETE", "TRACE", "OPTIONS", "PROPFIND", "CONNECT"]) {
    for (const path of ["/logout", `${cardPage}/freeze`, "/cards/x/transactions/y/retry", "/login", "/login.data"]) {
      const init: RequestInit = {
        method: method === "CONNECT" ? "GET" : method,
        headers: { Origin: base, Cookie: claire },
        redirect: "manual",
      };
      if (!["TRACE", "OPTIONS", "PROPFIND", "CONNECT"].includes(method))
        Object.assign(init, {
          body: "intent=freeze",
          headers: { ...init.headers, "Content-Type": "application/x-www-form-urlencoded" },
        });
      if (method === "CONNECT") continue; // fetch cannot send it; covered below with a raw request
      if (method === "TRACE") {
        const raw = await rawRequest(`TRACE ${path} HTTP/1.1`);
        expect(raw.status, `TRACE ${path}`).toBe(405);
        expect(raw.body).toContain("Action non prise en charge");
        continue;
      }
      const res = await fetch(`${base}${path}`, init);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
      expect(await res.text()).toContain("Action non prise en charge");
    }
  }
  // Still signed in, and the card is not frozen: its menu still offers to freeze it, not to unfreeze.
  const page = await (await get(cardPage, claire)).text();
  expect(page).toContain("Geler la carte");
  expect(page).not.toContain("Dégeler la carte");
  expect((await get("/settings/profile", claire)).status).toBe(200);
});

/** A request fetch() refuses to send (TRACE), written on a socket. */
async function rawRequest(requestLine: string): Promise<{ status: number; body: string }> {
  const net = await import("node:net");
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () =>
      socket.write(`${requestLine}\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`),
    );
    let data = "";
    socket.on("data", (d) => (data += d.toString()));
    socket.on("end", () => resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(data)?.[1] ?? 0), body: data }));
    socket.on("error", reject);
  });
}

test("finding 6: a post to a page without an action, and a malformed escape in a path, are 4xx in French", async () => {
  for (const path of [
    "/cards",
    "/settings?index",
    "/?index",
    "/transactions",
    "/locales/fr",
    "/sandbox-issuer/reveal/abc",
    "/cards.data",
  ]) {
    const res = await fetch(`${base}${path}`, {
      method: "POST",
      body: new URLSearchParams({ a: "1" }),
      headers: { Origin: base, Cookie: claire },
      redirect: "manual",
    });
    expect(res.status, path).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect(await res.text()).toContain("Action non prise en charge");
  }
  for (const path of ["/cards/%E0%A4%A", "/%E0%A4%A", "/wallets/%E0%A4%A", "/reset-password/%E0%A4%A"]) {
    const res = await get(path, claire);
    expect(res.status, path).toBeLessThan(500);
    expect(res.status, path).toBeGreaterThanOrEqual(300);
  }
  // The unread body of a refused post does not hold the connection: the next request on it is answered.
  const big = "a=" + "x".repeat(1024 * 1024);
  const refused = await fetch(`${base}/cards`, {
    method: "POST",
    body: big,
    headers: { Origin: base, Cookie: claire, "Content-Type": "application/x-www-form-urlencoded" },
  });
  expect(refused.status).toBe(405);
  expect(refused.headers.get("connection")).toBe("close");
  const started = Date.now();
  expect((await get("/login")).status).toBe(200);
  expect(Date.now() - started).toBeLessThan(2000);
});
