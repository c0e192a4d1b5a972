import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
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
