import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test } from "vitest";
import { receiptFileName, sniffReceiptType } from "./receipt-file";

/** A receipt's type from its bytes, and whole (spec 001 §5 "Upload"). */
const FIXTURES = resolve(__dirname, "../../tests/fixtures/receipts");
const jpeg = new Uint8Array(readFileSync(resolve(FIXTURES, "boulangerie-2026-11-14.jpg")));
const pdf = new Uint8Array(readFileSync(resolve(FIXTURES, "cycles-du-rhone-2026-11-02.pdf")));
const png = new Uint8Array(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
    "base64",
  ),
);
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

test("whole PDF, PNG and JPEG files are recognised, trailing bytes after their end allowed", () => {
  expect(sniffReceiptType(pdf)).toBe("application/pdf");
  expect(sniffReceiptType(png)).toBe("image/png");
  expect(sniffReceiptType(jpeg)).toBe("image/jpeg");
  expect(sniffReceiptType(concat(jpeg, new Uint8Array(64)))).toBe("image/jpeg");
  expect(sniffReceiptType(concat(png, new Uint8Array(64)))).toBe("image/png");
  expect(sniffReceiptType(concat(pdf, new TextEncoder().encode("\n\n")))).toBe("application/pdf");
});

test("cut files, other formats and impostors are not", () => {
  for (let cut = 1; cut < jpeg.length; cut += Math.floor(jpeg.length / 7))
    expect(sniffReceiptType(jpeg.subarray(0, jpeg.length - cut)), `jpeg - ${cut}`).toBeNull();
  for (let cut = 1; cut < png.length - 8; cut += 5)
    expect(sniffReceiptType(png.subarray(0, png.length - cut)), `png - ${cut}`).toBeNull();
  expect(sniffReceiptType(pdf.subarray(0, pdf.length - 200))).toBeNull();
  expect(sniffReceiptType(new TextEncoder().encode("GIF89a..."))).toBeNull();
  expect(sniffReceiptType(new TextEncoder().encode("MZ\x90\x00"))).toBeNull();
  expect(sniffReceiptType(concat(new Uint8Array([0x20]), pdf))).toBeNull();
  // An EXIF thumbnail's own end marker does not make a cut photo whole: the scan must end.
  expect(sniffReceiptType(new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0x00, 0x06, 0xff, 0xd8, 0xff, 0xd9]))).toBeNull();
  expect(sniffReceiptType(new Uint8Array(0))).toBeNull();
});

test("the name shown keeps the device's name, safe, with the extension of the real type", () => {
  expect(receiptFileName("IMG_1234.HEIC", "image/jpeg")).toBe("IMG_1234.jpg");
  expect(receiptFileName("C:\\Users\\marie\\Facture été.pdf", "application/pdf")).toBe("Facture été.pdf");
  expect(receiptFileName('../../"evil";\r\n.png', "image/png")).toBe("evil.png");
  expect(receiptFileName("", "application/pdf")).toBe("justificatif.pdf");
  expect(receiptFileName(".htaccess", "image/png")).toBe("htaccess.png");
  expect(receiptFileName("a".repeat(500) + ".jpg", "image/jpeg").length).toBeLessThanOrEqual(124);
});
