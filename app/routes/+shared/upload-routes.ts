import { matchPath } from "react-router";
import { RECEIPT_MAX_BYTES, RECEIPT_MAX_FILES } from "../../domain/receipt-file";

/**
 * The only routes that accept files (multipart/form-data), each with its limits. The server
 * (server/security.ts) refuses multipart everywhere else (415) and lets these bodies be as large as
 * their files allow; the root's unreadable-form middleware leaves them to `parseUploadForm`, which
 * streams them with the same limits. Decision 0025.
 */
export interface UploadLimits {
  maxFiles: number;
  /** Bytes per file. */
  maxFileSize: number;
}

export const UPLOAD_ROUTES: readonly ({ pattern: string } & UploadLimits)[] = [
  // The refund wizard's receipt step (spec 001 §2.6, §5 "Upload").
  { pattern: "/plans/expense-requests/:requestId", maxFiles: RECEIPT_MAX_FILES, maxFileSize: RECEIPT_MAX_BYTES },
  // The allowance wizard: the subscription's tickets step sends its two documents (issue 15, spec 001 §2.7, §9).
  { pattern: "/plans/allowances/:requestId", maxFiles: 2, maxFileSize: RECEIPT_MAX_BYTES },
];

/** Room for the form's other fields and the multipart framing. */
export const UPLOAD_FORM_OVERHEAD = 64 * 1024;

/** The largest body an upload with these limits can need. */
export function uploadBodyLimit(limits: UploadLimits): number {
  return limits.maxFiles * limits.maxFileSize + UPLOAD_FORM_OVERHEAD;
}

/**
 * How much of a refused upload's body is still read (and dropped): a browser that is still sending its
 * file when the connection closes shows a network error instead of the French message on the field, so a
 * file somewhat too big is read to its end and answered. Twice what the route's files may weigh; a body
 * announcing more is refused (413) before anything is read.
 */
export function uploadReadLimit(limits: UploadLimits): number {
  return 2 * uploadBodyLimit(limits);
}

/** This path's upload limits (a `.data` request is its page's), or null when it takes no files. */
export function uploadLimitsFor(pathname: string): UploadLimits | null {
  const path = pathname.replace(/\.data$/, "");
  const route = UPLOAD_ROUTES.find((r) => matchPath({ path: r.pattern, end: true }, path));
  return route ? { maxFiles: route.maxFiles, maxFileSize: route.maxFileSize } : null;
}

/** Whether a matched route pattern (React Router's `pattern` argument) is an upload route. */
export function isUploadPattern(pattern: string | undefined): boolean {
  const bare = (p: string) => p.replace(/^\/+/, "");
  return pattern !== undefined && UPLOAD_ROUTES.some((r) => bare(r.pattern) === bare(pattern));
}
