import {
  FormDataParseError,
  MaxFileSizeExceededError,
  MaxFilesExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseFormData,
} from "@remix-run/form-data-parser";
import { errorPage } from "~/routes/+shared/error-page.server";
import { uploadBodyLimit, uploadLimitsFor, uploadReadLimit, type UploadLimits } from "~/routes/+shared/upload-routes";

export type UploadFormResult = { kind: "parsed"; form: FormData } | { kind: "tooBig" } | { kind: "tooManyFiles" };

/**
 * Reads an upload form (multipart, or a plain url-encoded post of the same route) as it streams in,
 * with limits: a body announcing more than `maxFiles × maxFileSize + 64 KB` is refused; a file past
 * `maxFileSize`, or a body past that total, stops the parsing at once (nothing oversized is ever held
 * whole); a file beyond `maxFiles` too. A refused body is still read to its end and dropped, up to the
 * route's read limit (uploadReadLimit), so that the browser gets the answer; beyond it, it is cut. Files come back in the FormData as web
 * `File`s (each at most `maxFileSize`, in memory); an empty file input (nothing chosen) is left out.
 * A body that cannot be read (cut short, no boundary) is the sender's fault: the French 400 page.
 */
export async function parseUploadForm(request: Request, limits: UploadLimits): Promise<UploadFormResult> {
  const maxTotalSize = uploadBodyLimit(limits);
  // What the server let through for this route (server/security.ts): read to the end, and dropped, when refused.
  const readLimit = uploadReadLimit(uploadLimitsFor(new URL(request.url).pathname) ?? limits);
  const length = Number(request.headers.get("Content-Length") ?? "");
  if (Number.isFinite(length) && length > maxTotalSize) {
    if (length > readLimit) await request.body?.cancel().catch(() => undefined);
    else if (request.body) await drainBody(request.body.getReader(), 0, readLimit);
    return { kind: "tooBig" };
  }
  // The parser reads a relay of the body, so that when it stops at a limit the rest of the body can still
  // be read and dropped: a browser that is still sending its file only shows the answer (the French message
  // on the field) once its request is read whole — cut short, it shows a network error instead.
  const { relayed, drain } = relayBody(request);
  try {
    const form = await parseFormData(
      relayed,
      { maxFiles: limits.maxFiles, maxFileSize: limits.maxFileSize, maxTotalSize, maxParts: 200 },
      (file) => (file.size === 0 && file.name === "" ? null : file),
    );
    return { kind: "parsed", form };
  } catch (err) {
    if (err instanceof MaxFileSizeExceededError || err instanceof MaxTotalSizeExceededError) {
      await drain(readLimit);
      return { kind: "tooBig" };
    }
    if (err instanceof MaxFilesExceededError) {
      await drain(readLimit);
      return { kind: "tooManyFiles" };
    }
    if (err instanceof FormDataParseError || err instanceof MultipartParseError) throw unreadable();
    throw err;
  }
}

/**
 * The request again, its body read through a relay; `drain(limit)` reads what the parser left and drops
 * it, at most `limit` bytes in all (the server already refuses bodies announcing more), then stops.
 */
function relayBody(request: Request): { relayed: Request; drain: (limit: number) => Promise<void> } {
  if (!request.body) return { relayed: request, drain: async () => undefined };
  const reader = request.body.getReader();
  let read = 0;
  const relay = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else {
          read += value.byteLength;
          controller.enqueue(value);
        }
      },
      // The parser giving up must not cut the connection: the rest is drained below.
      cancel: () => undefined,
    },
    // Nothing read ahead: the relay reads the body only when the parser asks.
    { highWaterMark: 0 },
  );
  const relayed = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: relay,
    signal: request.signal,
    duplex: "half",
  } as RequestInit);
  const drain = (limit: number) => drainBody(reader, read, limit);
  return { relayed, drain };
}

/** Reads the rest of a body and drops it; past `limit` bytes in all (`read` so far), cuts it. */
async function drainBody(reader: ReadableStreamDefaultReader<Uint8Array>, read: number, limit: number) {
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
      if (read > limit) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The sender went away: nothing left to read.
  }
}

function unreadable(): Response {
  return new Response(errorPage(400), {
    status: 400,
    statusText: "Bad Request",
    headers: { "Content-Type": "text/html; charset=utf-8" },
  });
}
