import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, expect, test } from "vitest";
import { pdfBomb, pngBomb, slowPdf } from "../../../../tests/support/bombs";
import { IsolatedReceiptReader, residentBytes, type IsolationLimits } from "./isolated";

/**
 * The reader the portal uses (decision 0046): the real local reader in a child process, bounded by a
 * time limit and a memory ceiling, killed and started again on breach. Real processes, real files.
 */
const FIXTURES = resolve(__dirname, "../../../../tests/fixtures/receipts");
const photo = new Uint8Array(readFileSync(resolve(FIXTURES, "boulangerie-2026-11-14.jpg")));
const invoice = new Uint8Array(readFileSync(resolve(FIXTURES, "cycles-du-rhone-2026-11-02.pdf")));
const readers: IsolatedReceiptReader[] = [];
const reader = (limits: Partial<IsolationLimits> = {}) => {
  const r = new IsolatedReceiptReader(limits);
  readers.push(r);
  return r;
};
afterAll(() => Promise.all(readers.map((r) => r.close())));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("a photo and a PDF are read in a child process, which stays for the next receipt", async () => {
  const isolated = reader();
  const photoReading = await isolated.read(photo, "image/jpeg");
  expect(photoReading.kind === "read" && photoReading.text).toContain("TOTAL TTC 9,10");
  const child = isolated.pid!;
  expect(child).not.toBe(process.pid);
  const pdfReading = await isolated.read(invoice, "application/pdf");
  expect(pdfReading.kind === "read" && pdfReading.text).toContain("NET A PAYER 85,90");
  expect(isolated.pid).toBe(child);
  await isolated.close();
  expect(alive(child)).toBe(false);
}, 60_000);

test("bombs are unreadable within seconds, bounded before decoding: the child neither dies nor grows", async () => {
  const isolated = reader();
  expect((await isolated.read(invoice, "application/pdf")).kind).toBe("read");
  const child = isolated.pid!;
  const before = residentBytes(child)!;
  for (const [bytes, type] of [
    [await pdfBomb(1024 ** 3), "application/pdf"],
    [await pngBomb(30_000, 30_000), "image/png"],
  ] as const) {
    const start = performance.now();
    expect((await isolated.read(bytes, type)).kind).toBe("unreadable");
    expect(performance.now() - start).toBeLessThan(5_000);
  }
  expect(isolated.pid).toBe(child);
  expect(residentBytes(child)! - before).toBeLessThan(100 * 1024 * 1024);
  expect(isolated.stops).toEqual([]);
}, 60_000);

test("past its time limit a reading is unreadable and its child killed; the next receipt gets a new child", async () => {
  // 30 MB of operators, within the decoded-size bound: PDF.js takes minutes on them.
  const isolated = reader({ timeLimitMs: 2_000 });
  const start = performance.now();
  expect(await isolated.read(await slowPdf(), "application/pdf")).toEqual({ kind: "unreadable", reason: "time limit" });
  expect(performance.now() - start).toBeLessThan(10_000);
  const killed = isolated.stops[0]!;
  expect(killed.reason).toBe("time limit");
  await expect.poll(() => alive(killed.pid)).toBe(false);
  expect((await isolated.read(invoice, "application/pdf")).kind).toBe("read");
  expect(isolated.pid).not.toBe(killed.pid);
}, 60_000);

test("past its memory ceiling the child is killed while it reads", async () => {
  // A child with its PDF reader loaded already holds more than 60 MB: the first look at it stops it.
  const isolated = reader({ memoryCeilingBytes: 60 * 1024 * 1024 });
  expect(await isolated.read(photo, "image/jpeg")).toEqual({ kind: "unreadable", reason: "memory ceiling" });
  expect(isolated.stops.map((s) => s.reason)).toEqual(["memory ceiling"]);
  await expect.poll(() => alive(isolated.stops[0]!.pid)).toBe(false);
}, 60_000);

test("a child that dies while reading ends that reading as unreadable, and the next is read", async () => {
  const isolated = reader();
  expect((await isolated.read(invoice, "application/pdf")).kind).toBe("read");
  const child = isolated.pid!;
  const reading = isolated.read(photo, "image/jpeg");
  process.kill(child, "SIGKILL");
  expect(await reading).toEqual({ kind: "unreadable", reason: "reader stopped (SIGKILL)" });
  expect((await isolated.read(invoice, "application/pdf")).kind).toBe("read");
  expect(isolated.pid).not.toBe(child);
}, 60_000);

test("a child left large by a reading is stopped after it, and an idle one after its delay", async () => {
  const recycled = reader({ recycleAboveBytes: 1 });
  expect((await recycled.read(invoice, "application/pdf")).kind).toBe("read");
  expect(recycled.pid).toBeUndefined();
  expect(recycled.stops.map((s) => s.reason)).toEqual(["recycled"]);

  const idle = reader({ idleMs: 200 });
  expect((await idle.read(invoice, "application/pdf")).kind).toBe("read");
  const child = idle.pid!;
  await expect.poll(() => alive(child), { timeout: 5_000 }).toBe(false);
  expect(idle.stops.map((s) => s.reason)).toEqual(["idle"]);
}, 60_000);

test("past the queue's length a receipt is answered 'reader busy' at once; the others are read in turn", async () => {
  const isolated = reader({ maxWaiting: 2 });
  const [first, second, third] = await Promise.all([
    isolated.read(invoice, "application/pdf"),
    isolated.read(invoice, "application/pdf"),
    isolated.read(invoice, "application/pdf"),
  ]);
  expect([first.kind, second.kind]).toEqual(["read", "read"]);
  expect(third).toEqual({ kind: "unreadable", reason: "reader busy" });
}, 60_000);
