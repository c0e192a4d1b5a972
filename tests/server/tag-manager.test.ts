import express from "express";
import type { Server } from "node:http";
import { afterAll, beforeAll, expect, test } from "vitest";
import { acceptOnlyForms, assignNonce, securityHeaders } from "../../server/security";

/**
 * Decision 0031: Google Tag Manager's origin is in the Content-Security-Policy only when a container is
 * configured, and a link's `ping` body (text/ping) is taken at /events only.
 */
const servers: Server[] = [];
async function serve(app: express.Express): Promise<string> {
  const server = app.listen(0);
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

async function policyWith(tagManager: boolean): Promise<string> {
  const app = express();
  app.use(assignNonce, securityHeaders({ development: false, tagManager }));
  app.get("/", (_req, res) => void res.send("ok"));
  return (await fetch(await serve(app))).headers.get("content-security-policy") ?? "";
}

let forms = "";
beforeAll(async () => {
  const app = express();
  app.use(acceptOnlyForms(() => null));
  app.post(/.*/, (_req, res) => void res.status(204).end());
  forms = await serve(app);
});
afterAll(() => servers.forEach((s) => s.close()));

test("without a container, no tag-manager origin; with one, its script, images and requests, nothing else", async () => {
  const without = await policyWith(false);
  expect(without).not.toContain("googletagmanager");
  const withTags = await policyWith(true);
  expect(withTags).toMatch(/script-src 'self' 'nonce-[^']+' https:\/\/www\.googletagmanager\.com;/);
  expect(withTags).toContain("img-src 'self' data: https://www.googletagmanager.com;");
  expect(withTags).toContain("connect-src 'self' https://www.googletagmanager.com;");
  expect(withTags).not.toContain("unsafe-inline");
});

test("a ping's text/ping body is taken at /events only; other text bodies stay refused there too", async () => {
  const post = (path: string, type: string) =>
    fetch(`${forms}${path}`, { method: "POST", headers: { "Content-Type": type }, body: "PING" });
  expect((await post("/events?name=clickCreateCard", "text/ping")).status).toBe(204);
  expect((await post("/events", "text/plain")).status).toBe(415);
  expect((await post("/cards/x/stop", "text/ping")).status).toBe(415);
  expect((await post("/events/x", "text/ping")).status).toBe(415);
  expect((await post("/events", "application/x-www-form-urlencoded")).status).toBe(204);
});
