import { expect, test } from "vitest";
import { uploadBodyLimit, uploadLimitsFor, uploadReadLimit } from "./upload-routes";
import { parseUploadForm } from "./uploads.server";

/** The upload parser on real multipart requests, as a browser sends them (spec 001 §5 "Upload"). */
const LIMITS = { maxFiles: 2, maxFileSize: 100_000 };
const BOUNDARY = "----portalTestBoundary7MA4YWxkTrZu0gW";
const encoder = new TextEncoder();

type Part = { name: string; value: string } | { name: string; fileName: string; type: string; bytes: Uint8Array };

function multipartChunks(parts: Part[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    if ("value" in part) {
      chunks.push(
        encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`),
      );
    } else {
      chunks.push(
        encoder.encode(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.fileName}"\r\n` +
            `Content-Type: ${part.type}\r\n\r\n`,
        ),
      );
      // The file in 16 KB pieces, as a network would hand them over.
      for (let i = 0; i < part.bytes.length; i += 16_384) chunks.push(part.bytes.subarray(i, i + 16_384));
      chunks.push(encoder.encode("\r\n"));
    }
  }
  chunks.push(encoder.encode(`--${BOUNDARY}--\r\n`));
  return chunks;
}

/** A request whose body is pulled piece by piece; `pulled()` says how many bytes the parser read. */
function uploadRequest(parts: Part[], options: { contentLength?: number | null; cut?: number; path?: string } = {}) {
  let chunks = multipartChunks(parts);
  if (options.cut) {
    const whole = Buffer.concat(chunks);
    chunks = [whole.subarray(0, whole.length - options.cut)];
  }
  const total = chunks.reduce((n, c) => n + c.length, 0);
  let pulled = 0;
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++];
      if (!chunk) return controller.close();
      pulled += chunk.length;
      controller.enqueue(chunk);
    },
  });
  const request = new Request(`http://localhost${options.path ?? "/plans/expense-requests/new"}`, {
    method: "POST",
    body,
    headers: {
      "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
      ...(options.contentLength === null ? {} : { "Content-Length": String(options.contentLength ?? total) }),
    },
    duplex: "half",
  } as RequestInit);
  return { request, pulled: () => pulled, total };
}

const bytes = (n: number, fill = 0x41) => new Uint8Array(n).fill(fill);

test("within the limits: the fields and the files, as web Files; an empty file input is left out", async () => {
  const { request } = uploadRequest([
    { name: "intent", value: "upload" },
    { name: "media", fileName: "ticket.jpg", type: "image/jpeg", bytes: bytes(LIMITS.maxFileSize) },
    { name: "media", fileName: "", type: "application/octet-stream", bytes: new Uint8Array(0) },
  ]);
  const result = await parseUploadForm(request, LIMITS);
  expect(result.kind).toBe("parsed");
  if (result.kind !== "parsed") return;
  expect(result.form.get("intent")).toBe("upload");
  const files = result.form.getAll("media");
  expect(files).toHaveLength(1);
  const file = files[0] as File;
  expect(file).toBeInstanceOf(File);
  expect(file.name).toBe("ticket.jpg");
  expect(file.size).toBe(LIMITS.maxFileSize);
});

test("a file one byte too big is refused", async () => {
  const justOver = uploadRequest([
    { name: "media", fileName: "a.jpg", type: "image/jpeg", bytes: bytes(LIMITS.maxFileSize + 1) },
  ]);
  expect(await parseUploadForm(justOver.request, LIMITS)).toEqual({ kind: "tooBig" });
});

test("a file too big (or one too many) within the body's limit: the rest of the body is read and dropped, so the browser gets the answer", async () => {
  // A browser still sending its file when the connection closes shows a network error, not the French message.
  const tooBig = uploadRequest([
    { name: "media", fileName: "a.jpg", type: "image/jpeg", bytes: bytes(LIMITS.maxFileSize + 50_000) },
    { name: "intent", value: "upload" },
  ]);
  expect(await parseUploadForm(tooBig.request, LIMITS)).toEqual({ kind: "tooBig" });
  expect(tooBig.pulled()).toBe(tooBig.total);

  const file = (n: number) => ({ name: "media", fileName: `t${n}.jpg`, type: "image/jpeg", bytes: bytes(30_000) });
  const tooMany = uploadRequest([file(1), file(2), file(3)]);
  expect(await parseUploadForm(tooMany.request, LIMITS)).toEqual({ kind: "tooManyFiles" });
  expect(tooMany.pulled()).toBe(tooMany.total);
});

test("a body that says nothing of its length is read at most to the read limit, then cut", async () => {
  // Not an upload route of the portal: the limits given are the route's (read limit: twice the files' weight).
  const { request, pulled, total } = uploadRequest(
    [{ name: "media", fileName: "huge.jpg", type: "image/jpeg", bytes: bytes(LIMITS.maxFileSize * 10) }],
    { contentLength: null, path: "/elsewhere" },
  );
  expect(await parseUploadForm(request, LIMITS)).toEqual({ kind: "tooBig" });
  expect(pulled()).toBeLessThan(uploadReadLimit(LIMITS) + 40_000);
  expect(pulled()).toBeLessThan(total / 1.5);
});

test("a body announcing more than maxFiles × maxFileSize + 64 KB is refused: read and dropped up to the read limit, beyond it not read at all", async () => {
  const over = uploadRequest([{ name: "intent", value: "upload" }], {
    contentLength: uploadBodyLimit(LIMITS) + 1,
    path: "/elsewhere",
  });
  expect(await parseUploadForm(over.request, LIMITS)).toEqual({ kind: "tooBig" });
  expect(over.pulled()).toBe(over.total);

  const farOver = uploadRequest([{ name: "intent", value: "upload" }], {
    contentLength: uploadReadLimit(LIMITS) + 1,
    path: "/elsewhere",
  });
  expect(await parseUploadForm(farOver.request, LIMITS)).toEqual({ kind: "tooBig" });
  expect(farOver.pulled()).toBe(0);
});

test("many small fields past the total are refused too, whatever the length announced", async () => {
  const fields = Array.from({ length: 150 }, (_, i) => ({ name: `f${i}`, value: "x".repeat(2000) }));
  const { request } = uploadRequest(fields, { contentLength: 1000 });
  expect(await parseUploadForm(request, LIMITS)).toEqual({ kind: "tooBig" });
});

test("three files when two are allowed: too_many_files", async () => {
  const file = (n: number) => ({ name: "media", fileName: `t${n}.jpg`, type: "image/jpeg", bytes: bytes(1000) });
  const { request } = uploadRequest([file(1), file(2), file(3)]);
  expect(await parseUploadForm(request, LIMITS)).toEqual({ kind: "tooManyFiles" });
});

test("a body cut short is the sender's fault: the French 400 page, not a 500", async () => {
  const { request } = uploadRequest([{ name: "media", fileName: "t.jpg", type: "image/jpeg", bytes: bytes(5000) }], {
    cut: 100,
  });
  const thrown = await parseUploadForm(request, LIMITS).catch((e: unknown) => e);
  expect(thrown).toBeInstanceOf(Response);
  expect((thrown as Response).status).toBe(400);
  expect(await (thrown as Response).text()).toContain("Requête invalide");
});

test("a url-encoded post to an upload route (a step without files) is read as usual", async () => {
  const request = new Request("http://localhost/plans/expense-requests/new", {
    method: "POST",
    body: new URLSearchParams({ intent: "next", amount: "9,10" }),
  });
  const result = await parseUploadForm(request, LIMITS);
  expect(result.kind === "parsed" && Object.fromEntries(result.form)).toEqual({ intent: "next", amount: "9,10" });
});

test("the upload routes: the refund and allowance wizards (and their .data requests) with 2 files of 10,000,000 bytes; nothing else", () => {
  expect(uploadLimitsFor("/plans/expense-requests/new")).toEqual({ maxFiles: 2, maxFileSize: 10_000_000 });
  expect(uploadLimitsFor("/plans/expense-requests/exr_abc.data")).toEqual({ maxFiles: 2, maxFileSize: 10_000_000 });
  expect(uploadLimitsFor("/plans/allowances/new")).toEqual({ maxFiles: 2, maxFileSize: 10_000_000 });
  expect(uploadLimitsFor("/plans/allowances/new.data")).toEqual({ maxFiles: 2, maxFileSize: 10_000_000 });
  for (const path of [
    "/login",
    "/plans",
    "/plans/expense-requests",
    "/plans/expense-requests/receipts/file_x",
    "/plans/allowances",
    "/plans/allowances/alw_x/cancel",
    "/settings/profile",
  ])
    expect(uploadLimitsFor(path), path).toBeNull();
});
