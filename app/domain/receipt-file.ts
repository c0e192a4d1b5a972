/**
 * What a receipt file is, from its bytes (never its name or the browser's type): PDF, PNG or JPEG,
 * and whole (a truncated image or a PDF without its end is refused). Spec 001 §5 "Upload".
 */
export type ReceiptContentType = "application/pdf" | "image/png" | "image/jpeg";

/** At most 10,000,000 bytes (spec 001 §5). */
export const RECEIPT_MAX_BYTES = 10_000_000;
/** At most two receipts per request. */
export const RECEIPT_MAX_FILES = 2;

export const RECEIPT_EXTENSIONS: Record<ReceiptContentType, string> = {
  "application/pdf": "pdf",
  "image/png": "png",
  "image/jpeg": "jpg",
};

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The type of a whole PDF, PNG or JPEG file; null for anything else (or a file cut short). */
export function sniffReceiptType(bytes: Uint8Array): ReceiptContentType | null {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return wholePdf(bytes) ? "application/pdf" : null;
  if (startsWith(bytes, PNG_SIGNATURE)) return wholePng(bytes) ? "image/png" : null;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return wholeJpeg(bytes) ? "image/jpeg" : null;
  return null;
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}

/** `%%EOF` near the end (a PDF's trailer; writers may add a line or two after it). */
function wholePdf(bytes: Uint8Array): boolean {
  const tail = new TextDecoder("latin1").decode(bytes.subarray(Math.max(0, bytes.length - 2048)));
  return tail.includes("%%EOF");
}

/** Chunks walked by their lengths: IHDR first, IEND last, nothing cut. */
function wholePng(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 8;
  let first = true;
  while (offset + 12 <= bytes.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    if (first && (type !== "IHDR" || length !== 13)) return false;
    first = false;
    const end = offset + 12 + length;
    if (end > bytes.length) return false;
    if (type === "IEND") return true;
    offset = end;
  }
  return false;
}

/**
 * Segments walked by their lengths (an EXIF thumbnail's own markers are skipped over) to a frame
 * header (SOF) and the scan (SOS); then the end-of-image marker must follow the scan's data.
 */
function wholeJpeg(bytes: Uint8Array): boolean {
  let offset = 2;
  let frame = false;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return false;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0x01) {
      offset += 2; // TEM: a marker without a length
      continue;
    }
    if (marker === 0xd8 || marker === 0xd9 || (marker >= 0xd0 && marker <= 0xd7)) return false;
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
    if (length < 2) return false;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) frame = true;
    if (marker === 0xda) {
      if (!frame) return false;
      // Entropy-coded data never holds FF D9: the first one after the scan ends the image.
      for (let i = offset + 2 + length; i + 1 < bytes.length; i++)
        if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) return true;
      return false;
    }
    offset += 2 + length;
  }
  return false;
}

/**
 * The name shown for a file: the last part of what the device sent, without control characters or
 * characters that mean something in a path or a header; with the extension of its real type.
 */
export function receiptFileName(sent: string, type: ReceiptContentType): string {
  const base = (sent.split(/[\\/]/).pop() ?? "")
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}"*:<>?|;]+/gu, "")
    .trim()
    .replace(/^\.+/, "")
    .slice(0, 120);
  const stem = base.replace(/\.[^.]{0,10}$/, "").trim() || "justificatif";
  return `${stem}.${RECEIPT_EXTENSIONS[type]}`;
}
