import { constants, inflateSync } from "node:zlib";

/**
 * Bounds checked on a receipt's bytes before any decoding (decision 0046): what a phone photo or a
 * shop's PDF needs, and nothing a decompression bomb would. Pure functions of the bytes: they read
 * headers and inflate with a ceiling, they never build the image or the page.
 */

/** A photo over this many pixels is refused before decoding (a 48 MP phone sensor is 8000 × 6000). */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** All the streams of a PDF, decoded, at most (a shop's invoice with its fonts is well under 5 MB). */
export const MAX_PDF_DECODED_BYTES = 32 * 1024 * 1024;
/** At most this many streams in a PDF (a receipt has tens). */
export const MAX_PDF_STREAMS = 5_000;
/** Only the first pages of a PDF are read: a receipt's total is on them. */
export const MAX_PDF_PAGES = 3;

export type BoundsCheck = { kind: "ok" } | { kind: "refused"; reason: string };

/** Width and height from a PNG's IHDR or a JPEG's frame header; null when the header holds none. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 24 && bytes[0] === 0x89 && bytes[1] === 0x50) {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let offset = 2;
  while (offset + 9 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      offset += marker === 0xff ? 1 : 2;
      continue;
    }
    const length = view.getUint16(offset + 2);
    // Start of frame (not DHT C4, JPG C8, DAC CC): precision, height, width.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
    }
    if (marker === 0xda || length < 2) return null;
    offset += 2 + length;
  }
  return null;
}

/** A photo is read only when its header gives a size of at most MAX_IMAGE_PIXELS. */
export function checkImage(bytes: Uint8Array): BoundsCheck {
  const size = imageSize(bytes);
  if (!size || size.width === 0 || size.height === 0) return { kind: "refused", reason: "no image size" };
  const pixels = size.width * size.height;
  if (pixels > MAX_IMAGE_PIXELS) return { kind: "refused", reason: `image of ${size.width}×${size.height} pixels` };
  return { kind: "ok" };
}

/** Filters whose output is decoded here to be measured: they shrink, or are inflated with a ceiling. */
const MEASURED = new Set(["FlateDecode", "Fl", "ASCIIHexDecode", "AHx", "ASCII85Decode", "A85"]);
/** Image codecs: the text reader never decodes an image, so their bytes count as they are. */
const IMAGES = new Set(["DCTDecode", "DCT", "JPXDecode", "CCITTFaxDecode", "CCF", "JBIG2Decode"]);

/**
 * Every stream of the PDF decoded with one byte ceiling for all of them together: inflating stops as
 * soon as it would pass the ceiling (zlib's maxOutputLength), nothing is buffered beyond. A filter that
 * cannot be measured this way (LZW, run-length: old formats a receipt does not use) refuses the file.
 */
export function checkPdf(bytes: Uint8Array, ceiling = MAX_PDF_DECODED_BYTES): BoundsCheck {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const starts = /\bstream(\r\n|\n|\r)/g;
  let decoded = 0;
  let streams = 0;
  for (let match = starts.exec(text); match; match = starts.exec(text)) {
    streams += 1;
    if (streams > MAX_PDF_STREAMS) return { kind: "refused", reason: `more than ${MAX_PDF_STREAMS} streams` };
    const dataStart = match.index + match[0].length;
    const end = text.indexOf("endstream", dataStart);
    const dataEnd = end === -1 ? text.length : end;
    let data: Uint8Array = bytes.subarray(dataStart, dataEnd);
    const dictStart = Math.max(text.lastIndexOf(" obj", match.index), text.lastIndexOf("\nobj", match.index), 0);
    for (const filter of filtersOf(text.slice(dictStart, match.index))) {
      if (IMAGES.has(filter)) break;
      if (!MEASURED.has(filter)) return { kind: "refused", reason: `stream filter ${filter}` };
      const next = decodeWithin(filter, data, ceiling - decoded);
      if (next === "tooLarge") return { kind: "refused", reason: `streams decode past ${ceiling} bytes` };
      if (next === "broken") break; // the reader fails on it the same way: nothing more to measure
      data = next;
    }
    decoded += data.length;
    if (decoded > ceiling) return { kind: "refused", reason: `streams decode past ${ceiling} bytes` };
    starts.lastIndex = dataEnd;
  }
  return { kind: "ok" };
}

/** The filter names of a stream's dictionary (`/Filter /FlateDecode` or `/Filter [/A85 /Fl]`). */
function filtersOf(dictionary: string): string[] {
  const found = /\/Filter\s*(\[[^\]]*\]|\/[^\s/<>[\]()]+)/.exec(dictionary);
  if (!found) return [];
  return [...found[1]!.matchAll(/\/([^\s/<>[\]()]+)/g)].map((m) => m[1]!);
}

function decodeWithin(filter: string, data: Uint8Array, room: number): Uint8Array | "tooLarge" | "broken" {
  if (room <= 0) return "tooLarge";
  if (filter === "FlateDecode" || filter === "Fl") {
    try {
      // One byte over the room tells "too large" from "exactly full"; a stream cut short is kept as read.
      return inflateSync(data, { maxOutputLength: room + 1, finishFlush: constants.Z_SYNC_FLUSH });
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" ? "tooLarge" : "broken";
    }
  }
  // ASCII hex halves what it decodes; base-85 is held to the room.
  return filter === "ASCIIHexDecode" || filter === "AHx" ? hexDecode(data) : base85Decode(data, room);
}

function hexDecode(data: Uint8Array): Uint8Array {
  const digits = Buffer.from(data)
    .toString("latin1")
    .split(">")[0]!
    .replace(/[^0-9a-fA-F]/g, "");
  return Buffer.from(digits.length % 2 ? `${digits}0` : digits, "hex");
}

function base85Decode(data: Uint8Array, room: number): Uint8Array | "tooLarge" {
  const chars = Buffer.from(data).toString("latin1").split("~>")[0]!.replace(/\s/g, "");
  // "z" stands for four zero bytes: the one way base-85 grows, so the output is held to the room.
  const out = new Uint8Array(Math.min(chars.length * 4, room + 1));
  let length = 0;
  const push = (byte: number) => {
    if (length >= out.length) return false;
    out[length++] = byte;
    return true;
  };
  let group: number[] = [];
  const flush = (count: number) => {
    let value = 0;
    for (let i = 0; i < 5; i++) value = value * 85 + (group[i] ?? 84);
    group = [];
    for (let i = 0; i < count - 1; i++) if (!push(Math.floor(value / 2 ** (24 - 8 * i)) & 0xff)) return false;
    return true;
  };
  for (const c of chars) {
    if (c === "z" && group.length === 0) {
      if (![0, 0, 0, 0].every(push)) return "tooLarge";
      continue;
    }
    const digit = c.charCodeAt(0) - 33;
    if (digit < 0 || digit > 84) break;
    group.push(digit);
    if (group.length === 5 && !flush(5)) return "tooLarge";
  }
  if (group.length > 1 && !flush(group.length)) return "tooLarge";
  return length > room ? "tooLarge" : out.subarray(0, length);
}
