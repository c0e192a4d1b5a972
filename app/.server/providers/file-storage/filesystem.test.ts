import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { FilesystemStorage } from "./filesystem";

/** The embedded default: files in a folder, keys checked so nothing lands outside it. */
const root = mkdtempSync(join(tmpdir(), "files-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const storage = new FilesystemStorage(join(root, "files"));
const text = async (stream: ReadableStream<Uint8Array> | null) => (stream ? new Response(stream).text() : null);

test("put, get back the same bytes, delete; a missing key is null and deleting it is no error", async () => {
  await storage.put("receipts/abc", new TextEncoder().encode("bonjour"), { contentType: "image/png" });
  expect(await text(await storage.get("receipts/abc"))).toBe("bonjour");
  // Readable by the server's user only; no temporary file left behind.
  expect(statSync(join(root, "files", "receipts", "abc")).mode & 0o077).toBe(0);
  expect(readdirSync(join(root, "files", "receipts"))).toEqual(["abc"]);
  await storage.delete("receipts/abc");
  expect(await storage.get("receipts/abc")).toBeNull();
  await expect(storage.delete("receipts/abc")).resolves.toBeUndefined();
});

test("a stream body is written whole", async () => {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("un "));
      controller.enqueue(new TextEncoder().encode("deux"));
      controller.close();
    },
  });
  await storage.put("receipts/streamed", body, { contentType: "application/pdf" });
  expect(await text(await storage.get("receipts/streamed"))).toBe("un deux");
});

test("keys that climb out of the folder, absolute or odd ones are refused", async () => {
  for (const key of ["../escape", "receipts/../../escape", "/etc/passwd", "", "a\\b", "a b", "receipts/", "./x"]) {
    await expect(storage.put(key, new Uint8Array([1]), { contentType: "image/png" }), key).rejects.toThrow(
      /storage key/,
    );
    await expect(storage.get(key), key).rejects.toThrow(/storage key/);
  }
  expect(readdirSync(root)).toEqual(["files"]);
});

test("list gives every key under a prefix, interrupted writes too, and modifiedAt their time; both can be deleted", async () => {
  const listed = new FilesystemStorage(join(root, "listed"));
  expect(await collect(listed.list("receipts/"))).toEqual([]);
  await listed.put("receipts/one", new Uint8Array([1]), { contentType: "image/png" });
  await listed.put("receipts/two", new Uint8Array([2]), { contentType: "image/png" });
  await listed.put("other/three", new Uint8Array([3]), { contentType: "image/png" });
  // What a worker killed during `put` leaves (0 bytes), and a name the portal never makes.
  writeFileSync(join(root, "listed", "receipts", "gone.0123456789ab.part"), "");
  writeFileSync(join(root, "listed", "receipts", "not a key.txt"), "x");
  const old = new Date("2026-01-02T03:04:05Z");
  utimesSync(join(root, "listed", "receipts", "gone.0123456789ab.part"), old, old);
  expect((await collect(listed.list("receipts/"))).sort()).toEqual([
    "receipts/gone.0123456789ab.part",
    "receipts/one",
    "receipts/two",
  ]);
  expect((await listed.modifiedAt("receipts/gone.0123456789ab.part"))?.toISOString()).toBe(old.toISOString());
  expect(Math.abs((await listed.modifiedAt("receipts/one"))!.getTime() - Date.now())).toBeLessThan(60_000);
  expect(await listed.modifiedAt("receipts/missing")).toBeNull();
  await listed.delete("receipts/gone.0123456789ab.part");
  expect((await collect(listed.list("receipts/"))).sort()).toEqual(["receipts/one", "receipts/two"]);
  // The temporary name is no way out of the folder either.
  for (const key of ["../x.0123456789ab.part", "receipts/.0123456789ab.part", "receipts/a.0123456789AB.part"])
    await expect(listed.delete(key), key).rejects.toThrow(/storage key/);
  await expect(collect(listed.list("../"))).rejects.toThrow(/storage key/);
});

async function collect(pages: AsyncIterable<string[]>): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of pages) keys.push(...page);
  return keys;
}
