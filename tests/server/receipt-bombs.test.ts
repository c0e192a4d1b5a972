import { readFileSync } from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, expect, test } from "vitest";
import { residentBytes } from "../../app/.server/providers/receipt-reading/isolated";
import { pdfBomb, pngBomb, slowPdf } from "../support/bombs";
import { openServerDatabase, signIn, type TestBrowser } from "../support/test-browser";
import { testPort, startTestServer, stopTestServer, type TestServer } from "../support/test-server";

/**
 * Hostile receipts against the real server (issue 28, decision 0046): a 1 MB PDF whose page inflates
 * to 1 GiB, an 875 KB PNG of 30000 × 30000 pixels and a PDF that keeps the reader busy past its time
 * limit, each uploaded by marie through the refund wizard and read as a real receipt is. Throughout
 * each reading /healthz answers within 1 s; afterwards the server is the same process, its memory
 * within 100 MB of where it was, and the bakery photo is still read. The bombs are made here, at run
 * time. Needs `npm run build` first (npm test builds).
 */
const NAME = "test-receipt-bombs";
const port = testPort(4500, 400);
const BAKERY = path.resolve(import.meta.dirname, "../fixtures/receipts/boulangerie-2026-11-14.jpg");
const WIZARD = "/plans/expense-requests/new";

let server: TestServer;
let db: Database.Database;
let marie: TestBrowser;

beforeAll(async () => {
  server = await startTestServer(NAME, port);
  db = openServerDatabase(NAME);
  marie = await signIn(server.base, db, "marie.martin@example.com");
}, 60_000);

afterAll(async () => {
  db?.close();
  await stopTestServer(server);
});

/** A new draft at its ticket step: the first type the wizard offers marie. */
async function newDraft(): Promise<string> {
  const page = await (await marie.get(WIZARD)).text();
  const types = [...page.matchAll(/<input[^>]*name="type_id"[^>]*>/g)].map((m) => m[0]);
  const offered = types.find((input) => !/\bdisabled\b/.test(input));
  const typeId = /value="([^"]+)"/.exec(offered ?? "")?.[1];
  if (!typeId) throw new Error("the wizard offers marie no type");
  const chosen = await marie.post(`${WIZARD}?step=type`, { intent: "continue", type_id: typeId });
  expect(chosen.status).toBe(302);
  const location = chosen.headers.get("location")!;
  expect(location).toContain("step=ticket");
  return location;
}

type Reading = { state: string; suggestion?: { amount: number | null } };

/** Uploads the file on a new draft's ticket step and waits for its reading, /healthz asked every 50 ms meanwhile. */
async function uploadAndRead(bytes: Uint8Array, name: string, type: string) {
  const ticket = await newDraft();
  const draftId = new URL(ticket, server.base).searchParams.get("draft")!;
  const form = new FormData();
  form.append("intent", "upload");
  form.append("receipt", new File([Buffer.from(bytes)], name, { type }));
  const health: number[] = [];
  let reading: Reading | null = null;
  const start = performance.now();
  const uploaded = marie.request(ticket, { method: "POST", body: form, headers: { Origin: server.base } });
  const watching = (async () => {
    while (performance.now() - start < 60_000) {
      const asked = performance.now();
      const answer = await fetch(`${server.base}/healthz`, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
      health.push(answer?.ok ? performance.now() - asked : Infinity);
      const row = db.prepare("select reading from expense_request_drafts where id = ?").get(draftId) as
        { reading: string | null } | undefined;
      const now = row?.reading ? (JSON.parse(row.reading) as Reading) : null;
      if (now && now.state !== "pending") return now;
      await new Promise((r) => setTimeout(r, 50));
    }
    return null;
  })();
  expect((await uploaded).status).toBe(302);
  reading = await watching;
  return { reading, health, seconds: (performance.now() - start) / 1000 };
}

test("hostile receipts are unreadable within seconds, /healthz answering within 1 s throughout; the same server, its memory back, still reads receipts", async () => {
  const pid = server.process.pid!;
  // A receipt first, so that the reader's own process is up and the server warmed.
  const warm = await uploadAndRead(readFileSync(BAKERY), "ticket.jpg", "image/jpeg");
  expect(warm.reading?.state).toBe("done");
  const memoryBefore = residentBytes(pid)!;

  const hostile = [
    { name: "bombe.pdf", type: "application/pdf", bytes: await pdfBomb(1024 ** 3) },
    { name: "bombe.png", type: "image/png", bytes: await pngBomb(30_000, 30_000) },
    // Within every size bound, but PDF.js would take minutes on it: stopped by the time limit (20 s).
    { name: "lent.pdf", type: "application/pdf", bytes: await slowPdf() },
  ];
  for (const file of hostile) {
    expect(file.bytes.length, file.name).toBeLessThan(1_100_000);
    const { reading, health, seconds } = await uploadAndRead(file.bytes, file.name, file.type);
    console.info(
      `${file.name} (${file.bytes.length} bytes): ${reading?.state} in ${seconds.toFixed(1)} s;` +
        ` /healthz asked ${health.length} times, slowest ${Math.max(...health).toFixed(0)} ms`,
    );
    expect(reading?.state, file.name).toBe("unreadable");
    expect(seconds, file.name).toBeLessThan(30);
    expect(health.length, file.name).toBeGreaterThan(0);
    expect(Math.max(...health), `${file.name}: slowest /healthz in ms`).toBeLessThan(1_000);
    expect(server.process.exitCode, file.name).toBeNull();
    expect(server.process.pid).toBe(pid);
  }

  const memoryAfter = residentBytes(pid)!;
  console.info(`server memory: ${Math.round(memoryBefore / 1e6)} MB before, ${Math.round(memoryAfter / 1e6)} MB after`);
  expect(memoryAfter - memoryBefore).toBeLessThan(100 * 1024 * 1024);
  const after = await uploadAndRead(readFileSync(BAKERY), "ticket.jpg", "image/jpeg");
  expect(after.reading).toMatchObject({ state: "done", suggestion: { amount: 910 } });
  // Every hostile reading was logged as a failed reading, with its reason.
  expect(server.output()).toContain("streams decode past");
  expect(server.output()).toContain("image of 30000×30000 pixels");
  expect(server.output()).toContain("time limit");
}, 180_000);
