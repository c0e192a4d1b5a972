import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type Tesseract from "tesseract.js";
import { afterAll, expect, test, vi } from "vitest";
import { LocalReceiptReader } from "./local";

/** The local reader with the real tesseract.js and unpdf: one worker, reused, one image at a time. */
const created = vi.hoisted(() => ({ count: 0 }));
vi.mock("tesseract.js", async (importOriginal) => {
  const original = await importOriginal<typeof Tesseract>();
  const createWorker: typeof original.createWorker = (...args) => {
    created.count += 1;
    return original.createWorker(...args);
  };
  return { ...original, createWorker, default: { ...original, createWorker } };
});

const FIXTURES = resolve(__dirname, "../../../../tests/fixtures/receipts");
const photo = new Uint8Array(readFileSync(resolve(FIXTURES, "boulangerie-2026-11-14.jpg")));
const pdf = new Uint8Array(readFileSync(resolve(FIXTURES, "cycles-du-rhone-2026-11-02.pdf")));
const readers: LocalReceiptReader[] = [];
const reader = (maxWaiting?: number) => {
  const r = new LocalReceiptReader(maxWaiting);
  readers.push(r);
  return r;
};
afterAll(() => Promise.all(readers.map((r) => r.close())));

test("photos read at the same time share one worker, one after the other, each with its own text", async () => {
  const local = reader();
  const results = await Promise.all([
    local.read(photo, "image/jpeg"),
    local.read(photo, "image/jpeg"),
    local.read(pdf, "application/pdf"),
  ]);
  expect(created.count).toBe(1);
  for (const result of results.slice(0, 2)) {
    expect(result.kind).toBe("read");
    if (result.kind === "read") expect(result.text).toContain("TOTAL TTC 9,10");
  }
  expect(results[2]!.kind === "read" && results[2]!.text).toContain("NET A PAYER 85,90");
  // Closed, a later photo starts a new worker.
  await local.close();
  expect((await local.read(photo, "image/jpeg")).kind).toBe("read");
  expect(created.count).toBe(2);
}, 60_000);

test("past the queue's length, a photo is answered unreadable at once rather than waiting", async () => {
  const local = reader(1);
  const [first, second] = await Promise.all([local.read(photo, "image/jpeg"), local.read(photo, "image/jpeg")]);
  expect(first.kind).toBe("read");
  expect(second).toEqual({ kind: "unreadable", reason: "reader busy" });
  expect((await local.read(photo, "image/jpeg")).kind).toBe("read");
}, 60_000);

test("what is not a receipt it can read is unreadable, never an exception", async () => {
  const local = reader();
  expect((await local.read(new TextEncoder().encode("%PDF-1.4 garbage %%EOF"), "application/pdf")).kind).toBe(
    "unreadable",
  );
  expect((await local.read(photo, "image/gif")).kind).toBe("unreadable");
  expect((await local.read(new Uint8Array([0xff, 0xd8, 0xff, 0x00]), "image/jpeg")).kind).toBe("unreadable");
}, 60_000);
