import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { openDemoDatabase } from "../../../tests/support/test-database";
import { createAllowanceRow } from "../db/factories";
import { createAllowanceDraft, getAllowanceDraft, setAllowanceFile } from "./allowances/drafts";
import { createLogger } from "../logger";
import { FilesystemStorage } from "../providers/file-storage/filesystem";
import { LocalReceiptReader } from "../providers/receipt-reading/local";
import { metricsRegistry } from "../metrics";
import type { ReceiptReader } from "../providers/receipt-reading";
import {
  deleteReceipt,
  describeReceipt,
  openReceipt,
  readReceipt,
  receiptUsedElsewhere,
  storeReceipt,
  type ReceiptDeps,
} from "./receipts";

/**
 * Receipts on a real database (SQLite, or PostgreSQL with TEST_DATABASE_URL), a real folder and the
 * real reader (tesseract.js, unpdf) with the demo's two receipts (tests/fixtures/receipts, the copies
 * of ../shared/fixtures/receipts).
 */
const FIXTURES = resolve(__dirname, "../../../tests/fixtures/receipts");
const bakery = readFileSync(join(FIXTURES, "boulangerie-2026-11-14.jpg"));
const bikeShop = readFileSync(join(FIXTURES, "cycles-du-rhone-2026-11-02.pdf"));
const NOW = new Date("2026-11-23T10:00:00Z");

let handle: DatabaseHandle;
let ids: Record<string, string>;
let folder: string;
let deps: ReceiptDeps;
const logLines: string[] = [];
const reader = new LocalReceiptReader();

beforeAll(async () => {
  ({ handle, ids } = await openDemoDatabase());
  folder = mkdtempSync(join(tmpdir(), "receipts-"));
  deps = {
    db: handle.db,
    fileStorage: new FilesystemStorage(folder),
    receiptReader: reader,
    logger: createLogger("debug", (line) => logLines.push(line)),
  };
}, 30_000);
afterAll(async () => {
  await reader.close();
  await handle.close();
  rmSync(folder, { recursive: true, force: true });
});

const file = (bytes: Uint8Array, name: string, type = "application/octet-stream") =>
  new File([bytes as Uint8Array<ArrayBuffer>], name, { type });

async function stored(userId: string, bytes: Uint8Array, name: string) {
  const result = await storeReceipt(deps, userId, file(bytes, name));
  if (result.kind !== "stored") throw new Error(`not stored: ${result.kind}`);
  return result.file;
}

const storedObjects = () =>
  readdirSync(folder, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
const fileRows = async () => (await handle.db.selectFrom("files").select("id").execute()).length;

test("a receipt is stored under a random key with its type sniffed from its content, for its owner only", async () => {
  // A name with a path and markup, a type the browser got wrong: neither is believed.
  const result = await storeReceipt(deps, ids.marie!, file(bakery, '../../etc/<ticket>".png', "text/plain"));
  expect(result.kind).toBe("stored");
  if (result.kind !== "stored") return;
  expect(result.file).toMatchObject({
    contentType: "image/jpeg",
    size: bakery.length,
    sha256: createHash("sha256").update(bakery).digest("hex"),
    fileName: "ticket.jpg",
  });
  const row = await handle.db
    .selectFrom("files")
    .selectAll()
    .where("id", "=", result.file.id)
    .executeTakeFirstOrThrow();
  expect(row.user_id).toBe(ids.marie);
  expect(row.storage_key).toMatch(/^receipts\/[\w-]{24}$/);
  expect(row.storage_key).not.toContain("ticket");

  const opened = await openReceipt(deps, ids.marie!, result.file.id);
  expect(opened.kind).toBe("found");
  if (opened.kind === "found")
    expect(Buffer.from(await new Response(opened.body).arrayBuffer()).equals(bakery)).toBe(true);
  expect(await describeReceipt(deps, ids.marie!, result.file.id)).toEqual(result.file);

  // Another user's id, or an id that names nothing: not found, and nothing removed.
  for (const [userId, fileId] of [
    [ids.paul!, result.file.id],
    [ids.marie!, "file_nope"],
    [ids.marie!, "x".repeat(5000)],
  ] as const) {
    expect(await describeReceipt(deps, userId, fileId)).toBeNull();
    expect((await openReceipt(deps, userId, fileId)).kind).toBe("notFound");
    expect((await readReceipt(deps, userId, fileId, NOW)).kind).toBe("notFound");
    expect((await deleteReceipt(deps, userId, fileId)).kind).toBe("notFound");
    expect(await receiptUsedElsewhere(deps, userId, fileId)).toBeNull();
  }
  expect(await describeReceipt(deps, ids.marie!, result.file.id)).not.toBeNull();
});

test("both shared receipts are read on this server: amount and date exact, the bakery matched to its partner", async () => {
  const photo = await stored(ids.marie!, bakery, "IMG_20261114_0842.jpg");
  const invoice = await stored(ids.marie!, bikeShop, "facture.pdf");
  expect(invoice.contentType).toBe("application/pdf");
  const bakeryPartner = await handle.db
    .selectFrom("partners")
    .select("id")
    .where("name_fr", "=", "Boulangerie Pain & Co")
    .executeTakeFirstOrThrow();

  const photoRead = await readReceipt(deps, ids.marie!, photo.id, NOW);
  const invoiceRead = await readReceipt(deps, ids.marie!, invoice.id, NOW);
  console.log(
    `receipt reading: bakery photo ${photoRead.kind === "read" ? photoRead.ms : "-"} ms (worker start included), ` +
      `bike-shop PDF ${invoiceRead.kind === "read" ? invoiceRead.ms : "-"} ms`,
  );
  expect(photoRead).toMatchObject({
    kind: "read",
    suggestion: {
      ticketDate: "2026-11-14",
      amount: 910,
      partnerId: bakeryPartner.id,
      companyName: "BOULANGERIE PAIN & co",
    },
  });
  expect(invoiceRead).toMatchObject({
    kind: "read",
    suggestion: { ticketDate: "2026-11-02", amount: 8590, companyName: "CYCLES DU RHONE" },
  });
  // The bike shop is no partner of the demo: the name read is kept, no partner is made up.
  if (invoiceRead.kind === "read") expect(invoiceRead.suggestion.partnerId).toBeNull();

  // The worker is reused: a second photo needs no new start.
  const again = await readReceipt(deps, ids.marie!, photo.id, NOW);
  expect(again).toMatchObject({ kind: "read", suggestion: { amount: 910, ticketDate: "2026-11-14" } });
}, 60_000);

test("the merchant read is matched to an enabled French partner by whole words, accents and case aside", async () => {
  const partners = Object.fromEntries(
    (await handle.db.selectFrom("partners").select(["id", "name_fr"]).execute()).map((p) => [p.name_fr, p.id]),
  );
  const scan = await stored(ids.marie!, bikeShop, "ticket.pdf");
  const cases: [string, string | null][] = [
    ["Boulangerie Pain et Co Lyon 3", partners["Boulangerie Pain & Co"]!],
    ["LE PETIT CAFÉ DE LA GARE", partners["Le Petit Café"]!],
    ["SAKURA", partners["Sakura Sushi"]!],
    ["CINEMA LE ROYAL", null], // closed: disabled partners are never suggested
    ["STATION-SERVICE DU RHONE", null], // disabled too
    ["AQUASPORTIF ANNECY", null], // "Aquasport Lille" is not in these words
  ];
  for (const [merchant, partnerId] of cases) {
    const reader: ReceiptReader = {
      name: "fixed",
      read: async () => ({ kind: "read", text: `${merchant}\n01/11/2026 10:00\nTOTAL TTC 12,00 EUR` }),
      close: async () => {},
    };
    const result = await readReceipt({ ...deps, receiptReader: reader }, ids.marie!, scan.id, NOW);
    expect(result.kind === "read" && result.suggestion, merchant).toEqual({
      ticketDate: "2026-11-01",
      amount: 1200,
      partnerId,
      companyName: merchant,
      period: null,
    });
  }
});

test("a receipt that cannot be read is logged as ocr_cannot_predict_image_annotations and answered unreadable", async () => {
  // A PDF without a text layer (a scan): nothing to read, no guess.
  const textless = new TextEncoder().encode(minimalPdf());
  const scan = await stored(ids.marie!, textless, "scan.pdf");
  expect(await readReceipt(deps, ids.marie!, scan.id, NOW)).toEqual({ kind: "unreadable" });
  expect(logLines.some((l) => l.includes('"msg":"ocr_cannot_predict_image_annotations"') && l.includes(scan.id))).toBe(
    true,
  );
  // A reader that fails outright: the same.
  const broken: ReceiptReader = {
    name: "broken",
    read: () => Promise.reject(new Error("worker died")),
    close: async () => {},
  };
  const before = logLines.length;
  expect(await readReceipt({ ...deps, receiptReader: broken }, ids.marie!, scan.id, NOW)).toEqual({
    kind: "unreadable",
  });
  expect(logLines.slice(before).join("\n")).toMatch(/ocr_cannot_predict_image_annotations.*worker died/);
});

test("each reading is timed in the metrics by outcome; another's file is not a reading (decision 0064)", async () => {
  const counts = async () => {
    const text = await metricsRegistry().getSingleMetricAsString("portal_receipt_reading_duration_seconds");
    const count = (outcome: string) =>
      Number(new RegExp(`_count\\{outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
    return { read: count("read"), unreadable: count("unreadable") };
  };
  const before = await counts();
  const scan = await stored(ids.marie!, bikeShop, "ticket.pdf");
  const reader: ReceiptReader = {
    name: "fixed",
    read: async () => ({ kind: "read", text: "CYCLES DU RHONE\n01/11/2026 10:00\nTOTAL TTC 12,00 EUR" }),
    close: async () => {},
  };
  const broken: ReceiptReader = {
    name: "broken",
    read: () => Promise.reject(new Error("down")),
    close: async () => {},
  };
  await readReceipt({ ...deps, receiptReader: reader }, ids.marie!, scan.id, NOW);
  await readReceipt({ ...deps, receiptReader: broken }, ids.marie!, scan.id, NOW);
  expect(await readReceipt({ ...deps, receiptReader: reader }, ids.paul!, scan.id, NOW)).toEqual({ kind: "notFound" });
  const after = await counts();
  expect({ read: after.read - before.read, unreadable: after.unreadable - before.unreadable }).toEqual({
    read: 1,
    unreadable: 1,
  });
});

test("bad files are refused and nothing is stored: 11 MB, a renamed executable, empty, truncated images, fake PDFs", async () => {
  const objects = storedObjects();
  const rows = await fileRows();
  const big = new Uint8Array(11_000_000);
  big.set(bakery.subarray(0, 4));
  const exe = new Uint8Array(4096);
  exe.set(new TextEncoder().encode("MZ\x90\x00This program cannot be run in DOS mode."));
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
    "base64",
  );
  const cases: [string, Uint8Array, string, string][] = [
    ["11 MB", big, "photo.jpg", "tooBig"],
    ["renamed executable", exe, "ticket.jpg", "invalidType"],
    ["empty", new Uint8Array(0), "ticket.png", "empty"],
    ["truncated JPEG", bakery.subarray(0, Math.floor(bakery.length / 2)), "ticket.jpg", "invalidType"],
    ["JPEG header only", bakery.subarray(0, 200), "ticket.jpg", "invalidType"],
    ["truncated PNG", png.subarray(0, png.length - 12), "ticket.png", "invalidType"],
    ["PNG signature only", png.subarray(0, 8), "ticket.png", "invalidType"],
    ["text named .pdf", new TextEncoder().encode("Facture\nTOTAL 12,00"), "facture.pdf", "invalidType"],
    ["PDF without its end", bikeShop.subarray(0, 4000), "facture.pdf", "invalidType"],
    ["HTML named .pdf", new TextEncoder().encode("<html>%PDF-1.4 %%EOF</html>"), "facture.pdf", "invalidType"],
  ];
  for (const [label, bytes, name, kind] of cases)
    expect((await storeReceipt(deps, ids.marie!, file(bytes, name, "image/jpeg"))).kind, label).toBe(kind);
  expect(storedObjects()).toBe(objects);
  expect(await fileRows()).toBe(rows);
  // A whole 1×1 PNG is a picture like any other.
  expect((await storeReceipt(deps, ids.marie!, file(png, "pixel.png"))).kind).toBe("stored");
  // Exactly 10,000,000 bytes is allowed by size (refused here only because it is no picture).
  expect((await storeReceipt(deps, ids.marie!, file(new Uint8Array(10_000_000), "x.jpg"))).kind).toBe("invalidType");
});

test("the same ticket on another live request of the user is found; cancelled or refused requests, the request being corrected and other users are not", async () => {
  const first = await stored(ids.marie!, bikeShop, "facture.pdf");
  const second = await stored(ids.marie!, bikeShop, "facture (1).pdf");
  const requests = await handle.db
    .selectFrom("expense_requests")
    .select(["id", "status", "created_at"])
    .where("user_id", "=", ids.marie!)
    .orderBy("created_at")
    .execute();
  const sent = requests.find((r) => r.status === "sent")!;
  expect(await receiptUsedElsewhere(deps, ids.marie!, second.id)).toBeNull();

  await handle.db
    .updateTable("expense_requests")
    .set({ second_media_id: first.id })
    .where("id", "=", sent.id)
    .execute();
  expect(await receiptUsedElsewhere(deps, ids.marie!, second.id)).toEqual({
    requestId: sent.id,
    createdAt: sent.created_at,
  });
  // The file itself, on that request, is found too; not when that request is the one being corrected.
  expect(await receiptUsedElsewhere(deps, ids.marie!, first.id)).toEqual({
    requestId: sent.id,
    createdAt: sent.created_at,
  });
  expect(await receiptUsedElsewhere(deps, ids.marie!, second.id, sent.id)).toBeNull();
  // Another user's identical file is theirs: no duplicate for them.
  const paulsCopy = await stored(ids.paul!, bikeShop, "facture.pdf");
  expect(await receiptUsedElsewhere(deps, ids.paul!, paulsCopy.id)).toBeNull();

  for (const status of ["cancelled", "refused"] as const) {
    await handle.db.updateTable("expense_requests").set({ status }).where("id", "=", sent.id).execute();
    expect(await receiptUsedElsewhere(deps, ids.marie!, second.id), status).toBeNull();
  }
  await handle.db
    .updateTable("expense_requests")
    .set({ status: "sent", second_media_id: null })
    .where("id", "=", sent.id)
    .execute();
});

test("a receipt on a request cannot be deleted; one only on a draft can, and the draft lets go of it", async () => {
  const onRequest = await stored(ids.marie!, bikeShop, "facture.pdf");
  const request = await handle.db
    .selectFrom("expense_requests")
    .select("id")
    .where("user_id", "=", ids.marie!)
    .executeTakeFirstOrThrow();
  await handle.db
    .updateTable("expense_requests")
    .set({ media_id: onRequest.id })
    .where("id", "=", request.id)
    .execute();
  expect(await deleteReceipt(deps, ids.marie!, onRequest.id)).toEqual({ kind: "inUse" });
  expect((await openReceipt(deps, ids.marie!, onRequest.id)).kind).toBe("found");

  const onDraft = await stored(ids.marie!, bakery, "ticket.jpg");
  const draftId = "erd_receipts_test";
  await handle.db
    .insertInto("expense_request_drafts")
    .values({
      id: draftId,
      user_id: ids.marie!,
      request_id: null,
      type_id: null,
      mobility_group: null,
      mobility_subtype: null,
      media_id: onDraft.id,
      second_media_id: null,
      partner_id: null,
      ticket_date: null,
      amount: null,
      iban: null,
      payment_methods: null,
      reading: null,
      step_reached: 2,
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
      submitted_at: null,
    })
    .execute();
  const objects = storedObjects();
  expect(await deleteReceipt(deps, ids.marie!, onDraft.id)).toEqual({ kind: "deleted" });
  expect(storedObjects()).toBe(objects - 1);
  expect(await describeReceipt(deps, ids.marie!, onDraft.id)).toBeNull();
  expect((await openReceipt(deps, ids.marie!, onDraft.id)).kind).toBe("notFound");
  const draft = await handle.db
    .selectFrom("expense_request_drafts")
    .select("media_id")
    .where("id", "=", draftId)
    .executeTakeFirstOrThrow();
  expect(draft.media_id).toBeNull();
  expect(await deleteReceipt(deps, ids.marie!, onDraft.id)).toEqual({ kind: "notFound" });
});

test("a receipt on an allowance cannot be deleted; one only on an allowance draft can, and the draft lets go of it", async () => {
  const group = await handle.db
    .selectFrom("memberships")
    .select("group_id")
    .where("user_id", "=", ids.marie!)
    .executeTakeFirstOrThrow();
  const ticket = await stored(ids.marie!, bikeShop, "abonnement.pdf");
  await createAllowanceRow(handle.db, {
    user_id: ids.marie!,
    group_id: group.group_id,
    type: "subscription",
    media_id: ticket.id,
  });
  expect(await deleteReceipt(deps, ids.marie!, ticket.id)).toEqual({ kind: "inUse" });
  expect((await openReceipt(deps, ids.marie!, ticket.id)).kind).toBe("found");

  const proof = await stored(ids.marie!, bakery, "attestation.jpg");
  const draft = await createAllowanceDraft(handle.db, ids.marie!, "subscription");
  await setAllowanceFile(handle.db, ids.marie!, draft.id, "second_media", proof.id);
  expect(await deleteReceipt(deps, ids.marie!, proof.id)).toEqual({ kind: "deleted" });
  const after = await getAllowanceDraft(handle.db, ids.marie!, draft.id);
  expect(after.kind === "found" && after.draft.secondMediaId).toBeNull();
});

/** A one-page PDF with nothing written on it (offsets computed so its cross-reference table is right). */
function minimalPdf(): string {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return pdf;
}
