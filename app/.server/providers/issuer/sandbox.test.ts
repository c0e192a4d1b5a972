import { constants, createPrivateKey, createPublicKey, privateDecrypt } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DatabaseHandle, DB } from "../../db";
import { DEMO_PIN, registerDemoCards, seedDemo } from "../../db/seed";
import { openTestDatabase } from "../../../../tests/support/test-database";
import { SandboxMessenger } from "../messaging/sandbox";
import { encryptPin } from "./pin";
import { IssuerError } from "./port";
import { advanceSandboxShipping, derivePan, isSandboxIssuer, registerSandboxCard, SandboxIssuer } from "./sandbox";
import { buildUser } from "../../db/factories";

let handle: DatabaseHandle;
let db: DB;
let issuer: SandboxIssuer;
const dir = mkdtempSync(path.join(tmpdir(), "issuer-"));
const keyFile = path.join(dir, "vault.key");

beforeAll(async () => {
  // One database per file (two in one file trip the PostgreSQL migrator): the demo world first, then test cards.
  handle = await openTestDatabase();
  db = handle.db;
  await seedDemo(db, new SandboxMessenger(db), { now: new Date(), baseUrl: "http://localhost" });
  issuer = new SandboxIssuer(db, keyFile);
  await registerDemoCards(db, issuer);
  await issuer.register({
    issuerRef: "iss_v",
    lastFour: "5556",
    brand: "visa",
    type: "virtual",
    createdAt: "2026-03-10T09:30:00.000Z",
  });
  await issuer.register({
    issuerRef: "iss_p",
    lastFour: "4242",
    brand: "visa",
    type: "physical",
    pin: "1234",
    shipping: { status: "submitted", eta: null },
  });
  await issuer.register({ issuerRef: "iss_c", lastFour: "7777", brand: "visa", type: "physical", pin: "4321" });
}, 30_000);
afterAll(() => handle.close());

const luhn = (digits: string) =>
  [...digits].reverse().reduce((sum, c, i) => {
    let d = Number(c);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    return sum + d;
  }, 0) %
    10 ===
  0;

async function revealKey(ref: string, kind: "details" | "pin", on: SandboxIssuer = issuer) {
  const session = await on.createRevealSession(ref, kind, "nonce");
  if (session.kind !== "document") throw new Error("expected a document");
  expect(session.url).toMatch(/^\/sandbox-issuer\/reveal\/[\w-]{20,}$/);
  return session.url.split("/").pop()!;
}

async function issuerRow(ref: string) {
  return db.selectFrom("sandbox_issuer_cards").selectAll().where("issuer_ref", "=", ref).executeTakeFirstOrThrow();
}

async function insertPortalCard(id: string, issuerRef: string, lastFour: string) {
  const user = await db.selectFrom("users").select("id").where("id", "=", "u1").executeTakeFirst();
  if (!user) {
    await db
      .insertInto("users")
      .values(buildUser({ id: "u1", email: "u1@example.com", features: "{}", created_at: new Date().toISOString() }))
      .execute();
    await db
      .insertInto("groups")
      .values({
        id: "g1",
        name: "G",
        can_issue: 1,
        cards_brand: "visa",
        address_line1: "1 rue A",
        address_zipcode: "75001",
        address_city: "Paris",
        address_country: "FR",
        mobility_rate_per_km: 25,
        mobility_yearly_cap: 60000,
        subscription_share_percent: 50,
        meal_sunday_workers: 0,
      })
      .execute();
  }
  await db
    .insertInto("cards")
    .values({
      id,
      user_id: "u1",
      group_id: "g1",
      type: "physical",
      brand: "visa",
      last_four: lastFour,
      issuer_ref: issuerRef,
      status: "active",
      frozen: 0,
      block_reason: null,
      pin_can_update: 1,
      shipping_status: "submitted",
      shipping_eta: null,
      shipping_line1: null,
      shipping_line2: null,
      shipping_zipcode: null,
      shipping_city: null,
      shipping_country: null,
      created_at: new Date().toISOString(),
    })
    .execute();
}

describe("demo cards", () => {
  const demoCards = () => db.selectFrom("cards").selectAll().where("user_id", "!=", "u1").execute();

  test("every demo card is known to the issuer, with the same state; physical cards have the demo PIN", async () => {
    const cards = await demoCards();
    expect(cards.length).toBeGreaterThanOrEqual(4);
    const known = await db.selectFrom("sandbox_issuer_cards").selectAll().execute();
    for (const card of cards) {
      const own = known.find((k) => k.issuer_ref === card.issuer_ref);
      expect(own, `card ${card.last_four}`).toBeDefined();
      expect({
        lastFour: own!.last_four,
        type: own!.type,
        frozen: own!.frozen,
        shipping: own!.shipping_status,
        eta: own!.shipping_eta,
      }).toEqual({
        lastFour: card.last_four,
        type: card.type,
        frozen: card.frozen,
        shipping: card.shipping_status,
        eta: card.shipping_eta,
      });
      if (card.type === "physical") {
        expect(await issuer.consumeReveal(await revealKey(card.issuer_ref, "pin"))).toEqual({
          kind: "pin",
          pin: DEMO_PIN,
        });
      } else {
        expect((await issuer.consumeReveal(await revealKey(card.issuer_ref, "details")))?.kind).toBe("details");
      }
    }
    expect(DEMO_PIN).toBe("1234");
  });

  test("paul's 3005 is frozen at the issuer too", async () => {
    const paul = await db
      .selectFrom("cards")
      .select("issuer_ref")
      .where("last_four", "=", "3005")
      .executeTakeFirstOrThrow();
    expect((await issuerRow(paul.issuer_ref)).frozen).toBe(1);
  });

  test("registering the demo cards again adds nothing", async () => {
    const before = await db.selectFrom("sandbox_issuer_cards").selectAll().orderBy("issuer_ref").execute();
    await registerDemoCards(db, issuer);
    expect(await db.selectFrom("sandbox_issuer_cards").selectAll().orderBy("issuer_ref").execute()).toEqual(before);
  });
});

test("card details: a Luhn-valid test number ending with the last four, never stored anywhere", async () => {
  const shown = await issuer.consumeReveal(await revealKey("iss_v", "details"));
  if (shown?.kind !== "details") throw new Error(`expected details, got ${JSON.stringify(shown)}`);
  expect(shown.pan).toMatch(/^400000\d{6}5556$/);
  expect(luhn(shown.pan)).toBe(true);
  expect(shown.cvc).toMatch(/^\d{3}$/);
  // Made in March 2026: expires in March 2029.
  expect(shown.expiry).toBe("03/29");
  for (const table of ["sandbox_issuer_cards", "sandbox_issuer_reveals", "cards", "outbox"] as const) {
    const rows = JSON.stringify(await db.selectFrom(table).selectAll().execute());
    expect(rows).not.toContain(shown.pan);
    expect(rows).not.toContain(shown.pan.slice(0, 12));
  }
  // Derived, not drawn: the same card shows the same number every time; another card another number.
  const again = await issuer.consumeReveal(await revealKey("iss_v", "details"));
  expect(again).toEqual(shown);
  const key = Buffer.from(readFileSync(keyFile, "utf8"), "base64");
  expect(derivePan(key, "iss_v", "5556")).toBe(shown.pan);
  expect(derivePan(key, "iss_other", "5556")).not.toBe(shown.pan);
  expect(derivePan(key, "iss_v", "4444", "mastercard")).toMatch(/^555555\d{6}4444$/);
  expect(luhn(derivePan(key, "iss_v", "4444", "mastercard"))).toBe(true);
});

test("the PIN is stored only encrypted", async () => {
  const row = await issuerRow("iss_p");
  expect(row.pin_ciphertext).toBeTruthy();
  expect(row.pin_ciphertext).not.toContain("1234");
  expect(await issuer.consumeReveal(await revealKey("iss_p", "pin"))).toEqual({ kind: "pin", pin: "1234" });
  // A virtual card without a PIN has none to show.
  await expect(issuer.createRevealSession("iss_v", "pin", "n")).rejects.toMatchObject({ code: "rejected" });
});

test("a reveal link serves once, and not after 5 minutes; only its hash is stored", async () => {
  const key = await revealKey("iss_p", "pin");
  const stored = JSON.stringify(await db.selectFrom("sandbox_issuer_reveals").selectAll().execute());
  expect(stored).not.toContain(key);
  expect(await issuer.consumeReveal(key)).toEqual({ kind: "pin", pin: "1234" });
  expect(await issuer.consumeReveal(key)).toBeNull();

  const late = await revealKey("iss_p", "pin");
  expect(await issuer.consumeReveal(late, new Date(Date.now() + 5 * 60 * 1000 + 1000))).toBeNull();
  // Refused once expired, and the refusal does not spend it for the (impossible) earlier time either.
  const justInTime = await revealKey("iss_p", "pin");
  expect(await issuer.consumeReveal(justInTime, new Date(Date.now() + 4 * 60 * 1000))).toEqual({
    kind: "pin",
    pin: "1234",
  });
  expect(await issuer.consumeReveal("not-a-key")).toBeNull();
});

test("two loads of one link at the same time: only one shows the secret", async () => {
  const key = await revealKey("iss_p", "pin");
  const results = await Promise.all([issuer.consumeReveal(key), issuer.consumeReveal(key), issuer.consumeReveal(key)]);
  expect(results.filter((r) => r !== null)).toHaveLength(1);
});

test("a new PIN arrives encrypted with the issuer's key, is stored encrypted, and is what the reveal shows", async () => {
  const key = await issuer.pinEncryptionKey();
  expect(key.publicKeyPem).toContain("BEGIN PUBLIC KEY");
  const before = (await issuerRow("iss_p")).pin_ciphertext;
  await issuer.updatePin("iss_p", encryptPin("9876", key));
  const row = await issuerRow("iss_p");
  expect(row.pin_ciphertext).not.toBe(before);
  expect(row.pin_ciphertext).not.toContain("9876");
  expect(await issuer.consumeReveal(await revealKey("iss_p", "pin"))).toEqual({ kind: "pin", pin: "9876" });

  for (const bad of ["12345", "123", "12a4", ""]) {
    await expect(issuer.updatePin("iss_p", encryptPin(bad, key))).rejects.toMatchObject({ code: "invalid_pin" });
  }
  await expect(issuer.updatePin("iss_p", "bm90IGVuY3J5cHRlZA==")).rejects.toMatchObject({ code: "invalid_pin" });
  // Refused PINs change nothing.
  expect((await issuerRow("iss_p")).pin_ciphertext).toBe(row.pin_ciphertext);
  await issuer.updatePin("iss_p", encryptPin(DEMO_PIN, key));
});

test("the PIN key pair lives in a file next to the vault key, so another worker or a restart can read PINs", async () => {
  const key = await issuer.pinEncryptionKey();
  const stored = createPrivateKey(readFileSync(`${keyFile}.pin.pem`, "utf8"));
  expect(createPublicKey(stored).export({ type: "spki", format: "pem" }).toString()).toBe(key.publicKeyPem);
  // A PIN encrypted with the published key opens with the key read from the file alone.
  const opened = privateDecrypt(
    { key: stored, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
    Buffer.from(encryptPin("4321", key), "base64"),
  );
  expect(opened.toString("utf8")).toBe("4321");
});

test("freeze and unfreeze are reversible; cancel is for good; unknown cards are refused", async () => {
  await issuer.freeze("iss_c");
  expect((await issuerRow("iss_c")).frozen).toBe(1);
  await issuer.unfreeze("iss_c");
  expect((await issuerRow("iss_c")).frozen).toBe(0);
  await issuer.freeze("iss_c");

  const key = await issuer.pinEncryptionKey();
  const pending = await revealKey("iss_c", "pin");
  await issuer.cancel("iss_c", "stolen");
  const row = await issuerRow("iss_c");
  expect([row.status, row.cancel_reason, row.frozen]).toEqual(["canceled", "stolen", 0]);

  const onCanceled = [
    () => issuer.freeze("iss_c"),
    () => issuer.unfreeze("iss_c"),
    () => issuer.cancel("iss_c", "lost"),
    () => issuer.updatePin("iss_c", encryptPin("1111", key)),
    () => issuer.createRevealSession("iss_c", "details", "n"),
    () => issuer.createRevealSession("iss_c", "pin", "n"),
  ];
  for (const call of onCanceled) await expect(call()).rejects.toMatchObject({ code: "card_canceled" });
  expect((await issuerRow("iss_c")).cancel_reason).toBe("stolen");
  // A link opened before the card was blocked shows nothing afterwards.
  expect(await issuer.consumeReveal(pending)).toBeNull();

  const onUnknown = [
    () => issuer.freeze("iss_nope"),
    () => issuer.unfreeze("iss_nope"),
    () => issuer.cancel("iss_nope", "lost"),
    () => issuer.updatePin("iss_nope", encryptPin("1111", key)),
    () => issuer.createRevealSession("iss_nope", "details", "n"),
  ];
  for (const call of onUnknown) {
    const err = await call().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IssuerError);
    expect(err).toMatchObject({ code: "card_not_found" });
  }
});

describe("shipping", () => {
  test("each step moves the issuer's record and is mirrored onto the portal's card", async () => {
    await insertPortalCard("c1", "iss_p", "4242");
    const now = new Date("2026-11-22T10:00:00Z");
    const portal = () =>
      db
        .selectFrom("cards")
        .select(["shipping_status", "shipping_eta"])
        .where("id", "=", "c1")
        .executeTakeFirstOrThrow();
    const own = async () => {
      const r = await issuerRow("iss_p");
      return { shipping_status: r.shipping_status, shipping_eta: r.shipping_eta };
    };

    await advanceSandboxShipping(db, "iss_p", "ship", now);
    expect(await portal()).toEqual({ shipping_status: "shipped", shipping_eta: "2026-11-27" });
    expect(await own()).toEqual(await portal());

    const expected = { submit: "submitted", deliver: "delivered", return: "returned", fail: "failure" } as const;
    for (const [step, status] of Object.entries(expected)) {
      await issuer.advanceShipping("iss_p", step as keyof typeof expected, now);
      expect(await portal()).toEqual({ shipping_status: status, shipping_eta: null });
      expect(await own()).toEqual(await portal());
    }
  });

  test("the estimated date follows the Paris calendar", async () => {
    // 23:30 UTC on 22 November is already 23 November in Paris.
    await advanceSandboxShipping(db, "iss_p", "ship", new Date("2026-11-22T23:30:00Z"));
    expect((await issuerRow("iss_p")).shipping_eta).toBe("2026-11-28");
  });

  test("virtual and unknown cards are not shipped", async () => {
    await expect(advanceSandboxShipping(db, "iss_v", "ship")).rejects.toMatchObject({ code: "rejected" });
    await expect(advanceSandboxShipping(db, "iss_nope", "ship")).rejects.toMatchObject({ code: "card_not_found" });
  });
});

test("registerSandboxCard: a card registered with a key file reads back with the same key", async () => {
  const otherFile = path.join(dir, "other.key");
  await registerSandboxCard(
    db,
    {
      issuerRef: "iss_r",
      lastFour: "1881",
      brand: "visa",
      type: "physical",
      pin: "2468",
      shipping: { status: "pending", eta: null },
    },
    otherFile,
  );
  const other = new SandboxIssuer(db, otherFile);
  expect(await other.consumeReveal(await revealKey("iss_r", "pin", other))).toEqual({ kind: "pin", pin: "2468" });
  // Another vault key cannot read that PIN: the reveal fails closed, without an error page.
  expect(await issuer.consumeReveal(await revealKey("iss_r", "pin"))).toBeNull();
  // A second issuer on the first file (a restart) reads what the first stored.
  const restarted = new SandboxIssuer(db, keyFile);
  expect(await restarted.consumeReveal(await revealKey("iss_p", "pin", restarted))).toEqual({
    kind: "pin",
    pin: DEMO_PIN,
  });

  await expect(
    registerSandboxCard(
      db,
      { issuerRef: "iss_bad", lastFour: "1881", brand: "visa", type: "physical", pin: "12" },
      otherFile,
    ),
  ).rejects.toMatchObject({ code: "invalid_pin" });
  await expect(
    registerSandboxCard(db, { issuerRef: "iss_bad", lastFour: "18", brand: "visa", type: "virtual" }, otherFile),
  ).rejects.toMatchObject({ code: "rejected" });
});

test("isSandboxIssuer tells the sandbox from other issuers", () => {
  expect(isSandboxIssuer(issuer)).toBe(true);
  expect(isSandboxIssuer({ ...issuer, name: "stripe" } as never)).toBe(false);
});

describe("making cards", () => {
  const cardholder = {
    ref: null,
    userId: "user_x",
    firstName: "Lucas",
    lastName: "Bernard",
    email: "lucas@example.com",
    phone: null,
    billingAddress: { line1: "3 avenue Foch", line2: null, zipcode: "69006", city: "Lyon", country: "FR" },
  };
  const address = { line1: "12 rue de la République", line2: null, zipcode: "69002", city: "Lyon", country: "FR" };

  test("a virtual card is visible at once, with a Luhn-valid number ending in its last four", async () => {
    const made = await issuer.issueCard({ requestKey: "req-v-1", cardholder, type: "virtual", brand: "visa" });
    const card = await issuer.issuedCard(made.issuerRef);
    expect(card).toMatchObject({ issuerRef: made.issuerRef, brand: "visa", shipping: null });
    expect(made.cardholderRef).toMatch(/^sich_/);
    const pan = derivePan(Buffer.from(readFileSync(keyFile, "utf8"), "base64"), made.issuerRef, card!.lastFour);
    expect(luhn(pan)).toBe(true);
  });

  test("one card per request key, even when asked twice at once", async () => {
    const input = { requestKey: "req-v-2", cardholder, type: "virtual" as const, brand: "visa" };
    const [a, b] = await Promise.all([issuer.issueCard(input), issuer.issueCard(input)]);
    expect(a.issuerRef).toBe(b.issuerRef);
    const rows = await db
      .selectFrom("sandbox_issuer_cards")
      .select("issuer_ref")
      .where("request_key", "=", "req-v-2")
      .execute();
    expect(rows).toHaveLength(1);
  });

  test("a physical card needs a readable PIN and an address the issuer ships to", async () => {
    const pin = encryptPin("8642", await issuer.pinEncryptionKey());
    const base = { cardholder, type: "physical" as const, brand: "visa" };
    await expect(issuer.issueCard({ ...base, requestKey: "req-p-0", encryptedPin: pin })).rejects.toMatchObject({
      code: "invalid_address",
    });
    await expect(issuer.issueCard({ ...base, requestKey: "req-p-1", shippingAddress: address })).rejects.toMatchObject({
      code: "invalid_pin",
    });
    await expect(
      issuer.issueCard({ ...base, requestKey: "req-p-2", shippingAddress: address, encryptedPin: "bm90IGEgUElO" }),
    ).rejects.toMatchObject({ code: "invalid_pin" });
    await expect(
      issuer.issueCard({
        ...base,
        requestKey: "req-p-3",
        encryptedPin: pin,
        shippingAddress: { ...address, country: "US" },
      }),
    ).rejects.toMatchObject({ code: "invalid_address", field: "country" });
    await expect(
      issuer.issueCard({
        ...base,
        requestKey: "req-p-4",
        encryptedPin: pin,
        shippingAddress: { ...address, zipcode: "690" },
      }),
    ).rejects.toMatchObject({ code: "invalid_address", field: "zipcode" });
    await expect(
      issuer.issueCard({
        ...base,
        requestKey: "req-p-5",
        encryptedPin: pin,
        shippingAddress: { ...address, country: "BE", zipcode: "1000" },
      }),
    ).resolves.toBeTruthy();
  });

  test("a physical card takes the configured delay to appear, then ships as pending with the chosen PIN", async () => {
    const slow = new SandboxIssuer(db, keyFile, { physicalCardDelayMs: 3000 });
    const now = new Date("2026-11-23T10:00:00Z");
    const made = await slow.issueCard(
      {
        requestKey: "req-p-slow",
        cardholder,
        type: "physical",
        brand: "visa",
        encryptedPin: encryptPin("8642", await slow.pinEncryptionKey()),
        shippingAddress: address,
      },
      now,
    );
    expect(await slow.issuedCard(made.issuerRef, new Date(now.getTime() + 2999))).toBeNull();
    expect(await slow.issuedCard(made.issuerRef, new Date(now.getTime() + 3000))).toMatchObject({
      shipping: { status: "pending", eta: null },
    });
    expect(await issuer.consumeReveal(await revealKey(made.issuerRef, "pin"))).toEqual({ kind: "pin", pin: "8642" });
    await expect(slow.issuedCard("sic_unknown")).rejects.toBeInstanceOf(IssuerError);
  });
});
