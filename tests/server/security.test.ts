import express from "express";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Server } from "node:http";
import { assignNonce, securityHeaders } from "../../server/security";

/** Issue 16 §5: Crisp's origins are in the Content-Security-Policy only when Crisp is the support chat. */
const servers: Server[] = [];
async function policyWith(crisp: boolean): Promise<string> {
  const app = express();
  app.use(assignNonce, securityHeaders({ development: false, crisp }));
  app.get("/", (_req, res) => void res.send("ok"));
  const server = app.listen(0);
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  const response = await fetch(`http://127.0.0.1:${port}/`);
  return response.headers.get("content-security-policy") ?? "";
}

let without = "";
let withCrisp = "";
beforeAll(async () => {
  without = await policyWith(false);
  withCrisp = await policyWith(true);
});
afterAll(() => servers.forEach((s) => s.close()));

test("without Crisp, no Crisp origin is allowed", () => {
  expect(without).toContain("script-src 'self' 'nonce-");
  expect(without).not.toContain("crisp.chat");
});

test("with Crisp, its script, styles and socket are allowed, and nothing else is loosened", () => {
  expect(withCrisp).toMatch(/script-src 'self' 'nonce-[^']+' https:\/\/client\.crisp\.chat;/);
  expect(withCrisp).toContain("wss://client.relay.crisp.chat");
  expect(withCrisp).toContain("frame-ancestors 'none'");
  expect(withCrisp).not.toContain("unsafe-inline");
});
