import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, expect, test } from "vitest";
import { S3Storage } from "./s3";

/** The S3 adapter against a local S3-compatible server (s3rver) on a free loopback port. */
const BUCKET = "receipts-test";
let server: S3rver;
let directory: string;
let endpoint: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "s3rver-"));
  server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: BUCKET }] });
  const address = (await server.run()) as AddressInfo;
  endpoint = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

const storage = () =>
  new S3Storage({ endpoint, bucket: BUCKET, region: "us-east-1", accessKeyId: "S3RVER", secretAccessKey: "S3RVER" });
const text = async (stream: ReadableStream<Uint8Array> | null) => (stream ? new Response(stream).text() : null);

test("put, get back the same bytes, delete; a missing key is null and deleting it is no error", async () => {
  const s3 = storage();
  const bytes = new TextEncoder().encode("%PDF-1.4 un justificatif %%EOF");
  await s3.put("receipts/abc_DEF-123", bytes, { contentType: "application/pdf" });
  expect(await text(await s3.get("receipts/abc_DEF-123"))).toBe("%PDF-1.4 un justificatif %%EOF");
  await s3.delete("receipts/abc_DEF-123");
  expect(await s3.get("receipts/abc_DEF-123")).toBeNull();
  expect(await s3.get("receipts/never-stored")).toBeNull();
  await expect(s3.delete("receipts/never-stored")).resolves.toBeUndefined();
});

test("a stream body is stored whole", async () => {
  const s3 = storage();
  const chunks = ["un ", "deux ", "trois"];
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
      controller.close();
    },
  });
  await s3.put("receipts/streamed", body, { contentType: "image/png" });
  expect(await text(await s3.get("receipts/streamed"))).toBe("un deux trois");
});

test("objects are private: every request is signed, none asks for a public ACL; an unknown key is refused", async () => {
  // s3rver serves unsigned GETs whatever the ACL (it does not model bucket policies), so privacy is
  // shown by what the adapter sends: signed requests only, no x-amz-acl (the bucket's private default).
  const seen: Request[] = [];
  const watched = new S3Storage({
    endpoint,
    bucket: BUCKET,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    fetch: (input, init) => {
      // The adapter hands over the Request it signed.
      seen.push(input as Request);
      return fetch(input, init);
    },
  });
  await watched.put("receipts/private", new TextEncoder().encode("secret"), { contentType: "image/jpeg" });
  expect(await text(await watched.get("receipts/private"))).toBe("secret");
  await watched.delete("receipts/private");
  expect(seen.map((r) => r.method)).toEqual(["PUT", "GET", "DELETE"]);
  for (const request of seen) {
    expect(request.headers.get("authorization")).toMatch(/^AWS4-HMAC-SHA256 Credential=S3RVER\//);
    expect(request.headers.get("x-amz-acl")).toBeNull();
    expect(request.url).not.toMatch(/X-Amz-Signature|acl/i);
  }
  // s3rver checks who signs (the access key), not the V4 signature itself.
  const wrongKey = new S3Storage({
    endpoint,
    bucket: BUCKET,
    region: "us-east-1",
    accessKeyId: "NOT-A-KEY",
    secretAccessKey: "S3RVER",
  });
  await storage().put("receipts/kept", new TextEncoder().encode("secret"), { contentType: "image/jpeg" });
  await expect(wrongKey.get("receipts/kept")).rejects.toThrow();
  await expect(wrongKey.put("receipts/kept", new Uint8Array([1]), { contentType: "image/png" })).rejects.toThrow();
  expect(await text(await storage().get("receipts/kept"))).toBe("secret");
});

test("keys that could leave the bucket's folder are refused before any request", async () => {
  const s3 = storage();
  for (const key of ["../x", "a/../../b", "/abs", "", "a b", "a?x=1", "a%2F..", "receipts/é"])
    await expect(s3.put(key, new Uint8Array([1]), { contentType: "image/png" }), key).rejects.toThrow(/storage key/);
});

// s3rver cannot continue a truncated listing (its continuation token uses a cipher OpenSSL 3 refuses), so these
// listings stay within one page; the adapter follows the library's cursor otherwise.
test("list gives every key under a prefix, and modifiedAt the time put wrote it", async () => {
  const s3 = storage();
  const before = Date.now();
  const keys = Array.from({ length: 5 }, (_, i) => `listed/k${i}`);
  for (const key of keys) await s3.put(key, new Uint8Array([1]), { contentType: "image/png" });
  await s3.put("listed-not/x", new Uint8Array([1]), { contentType: "image/png" });
  const pages: string[][] = [];
  for await (const page of s3.list("listed/")) pages.push(page);
  expect(pages.flat().sort()).toEqual(keys);
  const at = await s3.modifiedAt("listed/k1");
  expect(at!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  expect(at!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  // A key that only starts like a stored one is not it.
  await s3.put("prefixed/ab", new Uint8Array([1]), { contentType: "image/png" });
  expect(await s3.modifiedAt("prefixed/a")).toBeNull();
  expect(await s3.modifiedAt("listed/never")).toBeNull();
  await s3.delete("listed/k1");
  expect(await s3.modifiedAt("listed/k1")).toBeNull();
  await expect(s3.modifiedAt("../x")).rejects.toThrow(/storage key/);
});
