import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { deflateSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { deflatedFill, pdfBomb, pngBomb } from "../../../../tests/support/bombs";
import { checkImage, checkPdf, imageSize, MAX_IMAGE_PIXELS, MAX_PDF_DECODED_BYTES } from "./bounds";

/** The bounds checked before any decoding (decision 0046), on the demo's receipts and bombs made here. */
const FIXTURES = resolve(__dirname, "../../../../tests/fixtures/receipts");
const photo = new Uint8Array(readFileSync(resolve(FIXTURES, "boulangerie-2026-11-14.jpg")));
const invoice = new Uint8Array(readFileSync(resolve(FIXTURES, "cycles-du-rhone-2026-11-02.pdf")));

/** A one-stream PDF with this dictionary and these stream bytes. */
const pdfWith = (dictionary: string, data: Uint8Array) =>
  new Uint8Array(
    Buffer.concat([
      Buffer.from(`%PDF-1.4\n4 0 obj\n<< ${dictionary} >>\nstream\n`, "latin1"),
      data,
      Buffer.from("\nendstream\nendobj\n%%EOF\n", "latin1"),
    ]),
  );

describe("images", () => {
  test("the size is read from the header of a JPEG and of a PNG", async () => {
    const size = imageSize(photo);
    expect(size!.width).toBeGreaterThan(100);
    expect(size!.height).toBeGreaterThan(100);
    expect(imageSize(await pngBomb(300, 200))).toEqual({ width: 300, height: 200 });
    expect(imageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0, 2]))).toBeNull();
  });

  test("a phone photo passes; a 30000 × 30000 PNG (875 KB) is refused before decoding", async () => {
    expect(checkImage(photo)).toEqual({ kind: "ok" });
    const bomb = await pngBomb(30_000, 30_000);
    expect(bomb.length).toBeLessThan(1_000_000);
    expect(checkImage(bomb)).toEqual({ kind: "refused", reason: "image of 30000×30000 pixels" });
  }, 30_000);

  test("the pixel ceiling is exact, and an image without a size is refused", async () => {
    const side = Math.floor(Math.sqrt(MAX_IMAGE_PIXELS));
    const header = (w: number, h: number) => {
      const bytes = new Uint8Array(24);
      bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      new DataView(bytes.buffer).setUint32(16, w);
      new DataView(bytes.buffer).setUint32(20, h);
      return bytes;
    };
    expect(checkImage(header(side, side)).kind).toBe("ok");
    expect(checkImage(header(MAX_IMAGE_PIXELS / 1000, 1000)).kind).toBe("ok");
    expect(checkImage(header(MAX_IMAGE_PIXELS / 1000 + 1, 1000)).kind).toBe("refused");
    expect(checkImage(header(0, 1000)).kind).toBe("refused");
    expect(checkImage(new Uint8Array([0xff, 0xd8, 0xff, 0xd9])).kind).toBe("refused");
  });
});

describe("PDFs", () => {
  test("a shop's invoice passes", () => {
    expect(checkPdf(invoice)).toEqual({ kind: "ok" });
  });

  test("a 1 MB PDF whose page inflates to 1 GiB is refused, inflating no further than the ceiling", async () => {
    const bomb = await pdfBomb(1024 ** 3);
    expect(bomb.length).toBeLessThan(1_500_000);
    const before = process.memoryUsage().arrayBuffers;
    const start = performance.now();
    expect(checkPdf(bomb)).toEqual({ kind: "refused", reason: `streams decode past ${MAX_PDF_DECODED_BYTES} bytes` });
    // Stopped at the ceiling: a fraction of a second, not the time to inflate a gigabyte.
    expect(performance.now() - start).toBeLessThan(5_000);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(2 * MAX_PDF_DECODED_BYTES);
  }, 60_000);

  test("the ceiling counts every stream together, and a stream exactly at it passes", async () => {
    const half = deflateSync(Buffer.alloc(600, 0x20));
    const two = new Uint8Array(
      Buffer.concat([pdfWith("/Filter /FlateDecode", half), pdfWith("/Filter /FlateDecode", half)]),
    );
    expect(checkPdf(two, 1200).kind).toBe("ok");
    expect(checkPdf(two, 1199).kind).toBe("refused");
    expect(checkPdf(two, 700).kind).toBe("refused");
  });

  test("a stream deflated twice ([/FlateDecode /FlateDecode]) is measured after both", async () => {
    const inner = await deflatedFill(10_000_000);
    const twice = pdfWith("/Filter [/FlateDecode /Fl]", deflateSync(inner));
    expect(twice.length).toBeLessThan(20_000);
    expect(checkPdf(twice, 9_999_999)).toEqual({ kind: "refused", reason: "streams decode past 9999999 bytes" });
    expect(checkPdf(twice, 10_000_000).kind).toBe("ok");
  }, 30_000);

  test("base-85 'z' groups (four zero bytes each) are held to the ceiling; hex halves", () => {
    const zeros = new Uint8Array(Buffer.from(`${"z".repeat(1000)}~>`, "latin1"));
    expect(checkPdf(pdfWith("/Filter /ASCII85Decode", zeros), 4000).kind).toBe("ok");
    expect(checkPdf(pdfWith("/Filter /A85", zeros), 3999).kind).toBe("refused");
    const hex = new Uint8Array(Buffer.from("41".repeat(1000) + ">", "latin1"));
    expect(checkPdf(pdfWith("/Filter /AHx", hex), 1000).kind).toBe("ok");
    expect(checkPdf(pdfWith("/Filter /AHx", hex), 999).kind).toBe("refused");
  });

  test("filters that cannot be measured refuse the file; image codecs count as they are", () => {
    const data = new Uint8Array(Buffer.from("anything"));
    expect(checkPdf(pdfWith("/Filter /LZWDecode", data))).toEqual({
      kind: "refused",
      reason: "stream filter LZWDecode",
    });
    expect(checkPdf(pdfWith("/Filter [/FlateDecode /RunLengthDecode]", deflateSync(data))).kind).toBe("refused");
    expect(checkPdf(pdfWith("/Subtype /Image /Filter /DCTDecode", data)).kind).toBe("ok");
  });

  test("a stream that is not valid deflate is left to the reader (which fails on it)", () => {
    expect(checkPdf(pdfWith("/Filter /FlateDecode", new Uint8Array([1, 2, 3, 4])))).toEqual({ kind: "ok" });
  });
});
