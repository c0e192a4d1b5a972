import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../../db";
import { openTestDatabase } from "../../db/test-database";
import { encryptPin } from "./pin";
import { IssuerError } from "./port";
import { derivePan, SandboxIssuer } from "./sandbox";

let handle: DatabaseHandle;
let issuer: SandboxIssuer;
const keyFile = path.join(mkdtempSync(path.join(tmpdir(), "issuer-")), "vault.key");

beforeAll(async () => {
  handle = await openTestDatabase();
  issuer = new SandboxIssuer(handle.db, keyFile);
  await issuer.register({ issuerRef: "iss_v", lastFour: "5556", brand: "visa", type: "virtual" });
  await issuer.register({ issuerRef: "iss_p", lastFour: "4242", brand: "visa", type: "physical", pin: "1234", shipping: { status: "submitted", eta: null } });
});
afterAll(() => handle.close());

const luhn = (digits: string) =>
  [...digits].reverse().reduce((sum, c, i) => {
    let d = Number(c);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    return sum + d;
  }, 0) % 10 === 0;

async function reveal(ref: string, kind: "details" | "pin") {
  const session = await issuer.createRevealSession(ref, kind, "nonce");
  if (session.kind !== "document") throw new Error("expected a document");
  return { key: session.url.split("/").pop()!, session };
}

test("card details: a Luhn-valid test number ending with the last four, never stored anywhere", async () => {
  const { key } = await reveal("iss_v", "details");
  const shown = await issuer.consumeReveal(key);
  expect(shown?.kind).toBe("details");
  if (shown?.kind !== "details") return;
  expect(shown.pan).toMatch(/^400000\d{6}5556$/);
  expect(luhn(shown.pan)).toBe(true);
  expect(shown.cvc).toMatch(/^\d{3}$/);
  expect(shown.expiry).toMatch(/^\d{2}\/\d{2}$/);
  for (const table of ["sandbox_issuer_cards", "sandbox_issuer_reveals", "cards", "outbox"] as const) {
    const rows = await handle.db.selectFrom(table).selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(shown.pan);
  }
  // Stable for the same card and key: the same number every time.
  expect(derivePan(Buffer.alloc(32, 1), "iss_v", "5556")).toBe(derivePan(Buffer.alloc(32, 1), "iss_v", "5556"));
});

test("a reveal link serves once, and not after 5 minutes", async () => {
  const { key } = await reveal("iss_p", "pin");
  expect(await issuer.consumeReveal(key)).toEqual({ kind: "pin", pin: "1234" });
  expect(await issuer.consumeReveal(key)).toBeNull();
  const late = await reveal("iss_p", "pin");
  expect(await issuer.consumeReveal(late.key, new Date(Date.now() + 5 * 60 * 1000 + 1000))).toBeNull();
  expect(await issuer.consumeReveal("not-a-key")).toBeNull();
});

test("a new PIN arrives encrypted with the issuer's key, is stored encrypted, and is what the reveal shows", async () => {
  const key = await issuer.pinEncryptionKey();
  await issuer.updatePin("iss_p", encryptPin("9876", key));
  const row = await handle.db.selectFrom("sandbox_issuer_cards").selectAll().where("issuer_ref", "=", "iss_p").executeTakeFirstOrThrow();
  expect(row.pin_ciphertext).not.toContain("9876");
  expect(await issuer.consumeReveal((await reveal("iss_p", "pin")).key)).toEqual({ kind: "pin", pin: "9876" });
  await expect(issuer.updatePin("iss_p", encryptPin("12345", key))).rejects.toThrow(IssuerError);
  await expect(issuer.updatePin("iss_p", "bm90IGVuY3J5cHRlZA==")).rejects.toThrow(IssuerError);
});

test("freeze, unfreeze, then cancel for good; unknown cards are refused", async () => {
  await issuer.freeze("iss_v");
  expect((await handle.db.selectFrom("sandbox_issuer_cards").select("frozen").where("issuer_ref", "=", "iss_v").executeTakeFirstOrThrow()).frozen).toBe(1);
  await issuer.unfreeze("iss_v");
  await issuer.cancel("iss_v", "lost");
  const row = await handle.db.selectFrom("sandbox_issuer_cards").selectAll().where("issuer_ref", "=", "iss_v").executeTakeFirstOrThrow();
  expect([row.status, row.cancel_reason]).toEqual(["canceled", "lost"]);
  for (const call of [() => issuer.freeze("iss_v"), () => issuer.unfreeze("iss_v"), () => issuer.createRevealSession("iss_v", "details", "n")]) {
    await expect(call()).rejects.toMatchObject({ code: "card_canceled" });
  }
  await expect(issuer.freeze("iss_nope")).rejects.toMatchObject({ code: "card_not_found" });
});

test("moving a delivery forward is mirrored onto the portal's card", async () => {
  await handle.db
    .insertInto("users")
    .values({ id: "u1", email: "u1@example.com", password_hash: null, first_name: null, last_name: null, phone: null, address_line1: null, address_line2: null, address_zipcode: null, address_city: null, address_country: null, terms_confirmed_at: null, status: "active", mfa_enabled: 0, mfa_preferred: "EMAIL", permissions: "[]", features: "{}", balance_overflow_authorized: null, created_at: new Date().toISOString() })
    .execute();
  await handle.db.insertInto("groups").values({ id: "g1", name: "G", can_issue: 1, cards_brand: "visa", address_line1: "1 rue A", address_zipcode: "75001", address_city: "Paris", address_country: "FR" }).execute();
  await handle.db
    .insertInto("cards")
    .values({ id: "c1", user_id: "u1", group_id: "g1", type: "physical", brand: "visa", last_four: "4242", issuer_ref: "iss_p", status: "active", frozen: 0, block_reason: null, pin_can_update: 1, shipping_status: "submitted", shipping_eta: null, shipping_line1: null, shipping_line2: null, shipping_zipcode: null, shipping_city: null, shipping_country: null, created_at: new Date().toISOString() })
    .execute();
  const now = new Date("2026-11-22T10:00:00Z");
  await issuer.advanceShipping("iss_p", "ship", now);
  const card = await handle.db.selectFrom("cards").select(["shipping_status", "shipping_eta"]).where("id", "=", "c1").executeTakeFirstOrThrow();
  expect(card).toEqual({ shipping_status: "shipped", shipping_eta: "2026-11-27" });
  await issuer.advanceShipping("iss_p", "fail", now);
  expect((await handle.db.selectFrom("cards").select("shipping_status").where("id", "=", "c1").executeTakeFirstOrThrow()).shipping_status).toBe("failure");
});
