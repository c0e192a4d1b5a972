import {
  FormDataParseError,
  MaxFileSizeExceededError,
  MaxFilesExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseFormData,
} from "@remix-run/form-data-parser";
import { errorPage } from "~/routes/+shared/error-page.server";
import { uploadBodyLimit, type UploadLimits } from "~/routes/+shared/upload-routes";

export type UploadFormResult = { kind: "parsed"; form: FormData } | { kind: "too_big" } | { kind: "too_many_files" };

/**
 * Reads an upload form (multipart, or a plain url-encoded post of the same route) as it streams in,
 * with limits: a body announcing more than `maxFiles × maxFileSize + 64 KB` is refused before a byte
 * is read; a file past `maxFileSize`, or a body past that total, stops the reading at once (nothing
 * oversized is ever held whole); a file beyond `maxFiles` too. Files come back in the FormData as web
 * `File`s (each at most `maxFileSize`, in memory); an empty file input (nothing chosen) is left out.
 * A body that cannot be read (cut short, no boundary) is the sender's fault: the French 400 page.
 */
export async function parseUploadForm(request: Request, limits: UploadLimits): Promise<UploadFormResult> {
  const maxTotalSize = uploadBodyLimit(limits);
  const length = Number(request.headers.get("Content-Length") ?? "");
  if (Number.isFinite(length) && length > maxTotalSize) {
    await request.body?.cancel().catch(() => undefined);
    return { kind: "too_big" };
  }
  try {
    const form = await parseFormData(
      request,
      { maxFiles: limits.maxFiles, maxFileSize: limits.maxFileSize, maxTotalSize, maxParts: 200 },
      (file) => (file.size === 0 && file.name === "" ? null : file),
    );
    return { kind: "parsed", form };
  } catch (err) {
    if (err instanceof MaxFileSizeExceededError || err instanceof MaxTotalSizeExceededError) return { kind: "too_big" };
    if (err instanceof MaxFilesExceededError) return { kind: "too_many_files" };
    if (err instanceof FormDataParseError || err instanceof MultipartParseError) throw unreadable();
    throw err;
  }
}

function unreadable(): Response {
  return new Response(errorPage(400), {
    status: 400,
    statusText: "Bad Request",
    headers: { "Content-Type": "text/html; charset=utf-8" },
  });
}
