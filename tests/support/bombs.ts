import { constants, createDeflate, deflateSync } from "node:zlib";

/**
 * Decompression bombs made at run time for the tests (issue 28): nothing large is committed. Each is a
 * well-formed file that the portal accepts as a receipt (sniffReceiptType), small on the wire, huge
 * once decoded.
 */

/** Deflates `total` bytes of `fill` streamed by 1 MB chunks, without ever holding them: zlib format. */
export async function deflatedFill(total: number, fill = 0x20): Promise<Buffer> {
  const deflate = createDeflate({ level: constants.Z_BEST_COMPRESSION, memLevel: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve, reject) => {
    deflate.on("end", resolve);
    deflate.on("error", reject);
  });
  const chunk = Buffer.alloc(1024 * 1024, fill);
  for (let written = 0; written < total; written += chunk.length) {
    const part = total - written < chunk.length ? chunk.subarray(0, total - written) : chunk;
    if (!deflate.write(part)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end();
  await ended;
  return Buffer.concat(out);
}

/** A one-page PDF whose content stream (spaces: a valid, empty page) inflates to `inflated` bytes. */
export async function pdfBomb(inflated: number): Promise<Uint8Array> {
  return onePagePdf(await deflatedFill(inflated));
}

/**
 * A one-page PDF of 15,000,000 "save the graphics state" operators (30 MB once inflated, under the
 * reader's bound), which PDF.js takes minutes to go through (measured: over 120 s): for the time limit.
 */
export async function slowPdf(): Promise<Uint8Array> {
  return onePagePdf(deflateSync(Buffer.from("q\n".repeat(15_000_000), "latin1")));
}

/** A well-formed one-page PDF (catalog, pages, page, cross-reference table) around a deflated content stream. */
function onePagePdf(stream: Buffer): Uint8Array {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const add = (part: string | Buffer) => {
    const buffer = typeof part === "string" ? Buffer.from(part, "latin1") : part;
    parts.push(buffer);
    length += buffer.length;
  };
  const object = (n: number, body: string | (string | Buffer)[]) => {
    offsets[n] = length;
    if (typeof body === "string") add(`${n} 0 obj\n${body}\nendobj\n`);
    else for (const part of [`${n} 0 obj\n`, ...body, "\nendobj\n"]) add(part);
  };
  add("%PDF-1.4\n");
  object(1, "<< /Type /Catalog /Pages 2 0 R >>");
  object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
  object(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>");
  object(4, [`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, stream, "\nendstream"]);
  const xref = length;
  add(`xref\n0 5\n0000000000 65535 f \n`);
  for (let n = 1; n <= 4; n++) add(`${String(offsets[n]).padStart(10, "0")} 00000 n \n`);
  add(`trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return new Uint8Array(Buffer.concat(parts));
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A grey PNG of `width` × `height` pixels, all black: its pixel rows, deflated, are all of it. */
export async function pngBomb(width: number, height: number): Promise<Uint8Array> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  // Each row is a filter byte and its pixels; filter 0 and black pixels, all zero bytes.
  const pixels = await deflatedFill((width + 1) * height, 0x00);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", pixels), chunk("IEND", Buffer.alloc(0))]),
  );
}
