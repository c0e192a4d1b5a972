import express from "express";
import type { AddressInfo } from "node:net";
import net from "node:net";
import type { Server } from "node:http";
import { afterEach, expect, test } from "vitest";
import { lingerOnUnreadBodies, type LingerLimits } from "../../server/linger";

/**
 * The lingering close (server/linger.ts) on a bare Express app whose one route answers a POST at once,
 * without reading its body (as the portal's refusals, redirects and pages without a form do). The client
 * is a raw socket, so the test decides when each part of the body leaves.
 */
let server: Server | undefined;

afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function start(limits: LingerLimits): Promise<number> {
  const app = express();
  app.use(lingerOnUnreadBodies(limits));
  app.post("/early", (_req, res) => {
    res.status(404).set("Connection", "close").send("Page introuvable");
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server!.once("listening", resolve));
  return (server!.address() as AddressInfo).port;
}

/** A raw connection: what it received, whether it ended cleanly or with an error, and when. */
function connect(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  const state = { received: "", error: null as string | null, endedAt: 0, answeredAt: 0 };
  socket.on("data", (chunk: Buffer) => {
    state.received += chunk.toString("latin1");
    state.answeredAt ||= Date.now();
  });
  socket.on("error", (err: NodeJS.ErrnoException) => (state.error = err.code ?? err.message));
  const closed = new Promise<void>((resolve) => socket.on("close", () => ((state.endedAt = Date.now()), resolve())));
  return { socket, state, closed };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const head = (length: number) =>
  `POST /early HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\n\r\n`;

test("an early answer waits for the body still coming, then arrives whole, with no reset", async () => {
  const port = await start({ ms: 10_000, bytes: 64 * 1024 * 1024 });
  const size = 4 * 1024 * 1024;
  const { socket, state, closed } = connect(port);
  socket.write(head(size));
  socket.write(Buffer.alloc(size / 4, "a"));
  await sleep(300);
  // Without the lingering close the answer has been sent and the connection closed by now.
  expect(state.received).toBe("");
  expect(state.endedAt).toBe(0);
  const sentAll = new Promise((resolve) => socket.write(Buffer.alloc(size - size / 4, "a"), resolve));
  await sentAll;
  socket.end();
  await closed;
  expect(state.error).toBeNull();
  expect(state.received).toMatch(/^HTTP\/1\.1 404 /);
  expect(state.received).toContain("Page introuvable");
});

test("a body that stops coming is waited for no longer than the limit", async () => {
  const port = await start({ ms: 300, bytes: 64 * 1024 * 1024 });
  const { socket, state, closed } = connect(port);
  const started = Date.now();
  socket.write(head(1024 * 1024));
  socket.write(Buffer.alloc(1024, "a"));
  await closed;
  expect(state.received).toMatch(/^HTTP\/1\.1 404 /);
  expect(state.received.toLowerCase()).toContain("connection: close");
  expect(state.answeredAt - started).toBeGreaterThanOrEqual(250);
  expect(state.answeredAt - started).toBeLessThan(3_000);
});

test("no more than the byte limit is read before the answer leaves", async () => {
  const port = await start({ ms: 30_000, bytes: 100 * 1024 });
  const { socket, state, closed } = connect(port);
  const started = Date.now();
  socket.write(head(10 * 1024 * 1024));
  socket.write(Buffer.alloc(300 * 1024, "a"));
  // The client sends nothing more: only the byte limit can let the answer leave before 30 s.
  await sleep(1_000);
  expect(state.received).toMatch(/^HTTP\/1\.1 404 /);
  expect(state.answeredAt - started).toBeLessThan(1_000);
  socket.destroy();
  await closed;
});

test("a request without a body is answered as before", async () => {
  const port = await start({ ms: 10_000, bytes: 1024 });
  const { socket, state, closed } = connect(port);
  socket.write("POST /early HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n");
  await sleep(200);
  expect(state.received).toMatch(/^HTTP\/1\.1 404 /);
  socket.destroy();
  await closed;
});
