import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { buildUser } from "../db/factories";
import type { DatabaseHandle } from "../db";
import { seedDemo } from "../db/seed";
import { openTestDatabase } from "../../../tests/support/test-database";
import { SandboxIssuer } from "../providers/issuer/sandbox";
import { SandboxMessenger } from "../providers/messaging/sandbox";
import {
  ABANDONED_DRAFT_MS,
  cardCreationOptions,
  getCardRequest,
  hasCardInTheMaking,
  newRequestId,
  saveCardChoice,
  saveCardPin,
  saveShippingAddress,
  settleCardRequests,
  submitCardRequest,
} from "./card-creation";

/** Card creation against a real database and the real sandbox issuer (its own key file). */
let handle: DatabaseHandle;
let issuer: SandboxIssuer;
let slowIssuer: SandboxIssuer;
const ids: Record<string, string> = {};
const groups: Record<string, string> = {};
const LYON = { line1: "12 rue de la République", line2: null, zipcode: "69002", city: "Lyon", country: "FR" };

beforeAll(async () => {
  handle = await openTestDatabase();
  await seedDemo(handle.db, new SandboxMessenger(handle.db), { now: new Date(), baseUrl: "http://localhost" });
  const keyFile = join(mkdtempSync(join(tmpdir(), "issuer-")), "vault.key");
  issuer = new SandboxIssuer(handle.db, keyFile);
  slowIssuer = new SandboxIssuer(handle.db, keyFile, { physicalCardDelayMs: 60_000 });
  for (const [name, email] of Object.entries({
    marie: "marie.martin@example.com",
    lucas: "lucas.bernard@example.com",
    claire: "claire.petit@example.com",
    paul: "paul.durand@example.com",
    nina: "nina.roux@example.com",
  })) {
    ids[name] = (
      await handle.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()
    ).id;
  }
  for (const g of await handle.db.selectFrom("groups").select(["id", "name"]).execute()) groups[g.name] = g.id;
}, 30_000);
afterAll(() => handle.close());

const freeLicences = async (userId: string, type: "physical" | "virtual") =>
  (
    await handle.db
      .selectFrom("licences")
      .select("id")
      .where("user_id", "=", userId)
      .where("license_type", "=", `${type}_card`)
      .where("used_at", "is", null)
      .execute()
  ).length;
const cardsOf = (userId: string) =>
  handle.db.selectFrom("cards").selectAll().where("user_id", "=", userId).orderBy("created_at").execute();

async function physicalDraft(userId: string, groupId: string, pin = "2580") {
  const requestId = newRequestId();
  expect(await saveCardChoice(handle.db, userId, requestId, { groupId, type: "physical" })).toEqual({ kind: "ok" });
  expect(await saveCardPin(handle.db, issuer, userId, requestId, pin)).toEqual({ kind: "ok" });
  expect(await saveShippingAddress(handle.db, userId, requestId, LYON)).toEqual({ kind: "ok" });
  return requestId;
}

test("the funders and licences each user can create cards with (DEMO.md)", async () => {
  expect(await cardCreationOptions(handle.db, ids.marie!)).toEqual({
    groups: [
      { id: groups["Acme France"], name: "Acme France", licences: { physical: 0, virtual: 1 } },
      { id: groups["CSE Acme"], name: "CSE Acme", licences: { physical: 1, virtual: 0 } },
    ],
    blocked: null,
  });
  expect((await cardCreationOptions(handle.db, ids.lucas!)).groups).toEqual([
    { id: groups["Acme France"], name: "Acme France", licences: { physical: 1, virtual: 1 } },
  ]);
  // Spec 000 §6: the two warnings.
  expect((await cardCreationOptions(handle.db, ids.claire!)).blocked).toBe("noLicence");
  const loner = "user_without_group";
  await handle.db
    .insertInto("users")
    .values(buildUser({ id: loner, email: "loner@example.com", created_at: new Date().toISOString(), mfa_enabled: 0 }))
    .execute();
  expect(await cardCreationOptions(handle.db, loner)).toEqual({ groups: [], blocked: "noGroup" });
});

test("step 1 refuses a group the user is not in, a type without licence, and another user's request id", async () => {
  const requestId = newRequestId();
  expect(
    await saveCardChoice(handle.db, ids.claire!, requestId, { groupId: groups["Acme France"]!, type: "virtual" }),
  ).toEqual({ kind: "noLicence" });
  expect(
    await saveCardChoice(handle.db, ids.lucas!, requestId, { groupId: groups["CSE Acme"]!, type: "virtual" }),
  ).toEqual({ kind: "noGroup" });
  expect(await saveCardChoice(handle.db, ids.lucas!, requestId, { groupId: "grp_forged", type: "virtual" })).toEqual({
    kind: "noGroup",
  });
  expect(
    await saveCardChoice(handle.db, ids.marie!, requestId, { groupId: groups["Acme France"]!, type: "physical" }),
  ).toEqual({ kind: "noLicence" });
  expect(
    await saveCardChoice(handle.db, ids.marie!, requestId, { groupId: groups["CSE Acme"]!, type: "physical" }),
  ).toEqual({ kind: "ok" });
  // The id is now marie's: nobody else can read, change or submit it.
  expect(
    await saveCardChoice(handle.db, ids.lucas!, requestId, { groupId: groups["Acme France"]!, type: "physical" }),
  ).toEqual({ kind: "forged" });
  expect(await getCardRequest(handle.db, ids.lucas!, requestId)).toBeNull();
  expect(await saveCardPin(handle.db, issuer, ids.lucas!, requestId, "1111")).toEqual({ kind: "notFound" });
  expect(await saveShippingAddress(handle.db, ids.lucas!, requestId, LYON)).toEqual({ kind: "notFound" });
  expect(await submitCardRequest(handle.db, issuer, ids.lucas!, requestId)).toEqual({ kind: "notFound" });
  expect(await freeLicences(ids.marie!, "physical")).toBe(1);
});

test("a physical card needs its PIN and address before it is submitted; nothing is used meanwhile", async () => {
  const requestId = newRequestId();
  await saveCardChoice(handle.db, ids.marie!, requestId, { groupId: groups["CSE Acme"]!, type: "physical" });
  expect(await submitCardRequest(handle.db, issuer, ids.marie!, requestId)).toEqual({
    kind: "incomplete",
    missing: "pin",
  });
  await saveCardPin(handle.db, issuer, ids.marie!, requestId, "4321");
  expect(await submitCardRequest(handle.db, issuer, ids.marie!, requestId)).toEqual({
    kind: "incomplete",
    missing: "address",
  });
  expect(await freeLicences(ids.marie!, "physical")).toBe(1);
  // The PIN is kept only encrypted for the issuer.
  const row = await handle.db
    .selectFrom("card_requests")
    .select("pin_ciphertext")
    .where("id", "=", requestId)
    .executeTakeFirstOrThrow();
  expect(row.pin_ciphertext).not.toContain("4321");
  expect(Buffer.from(row.pin_ciphertext!, "base64").length).toBe(256);
});

test("requests abandoned for a day go when the user starts another; recent ones and other users' stay", async () => {
  const now = Date.now();
  const abandoned = newRequestId();
  const recent = newRequestId();
  const lucasDraft = newRequestId();
  await saveCardChoice(
    handle.db,
    ids.marie!,
    abandoned,
    { groupId: groups["CSE Acme"]!, type: "physical" },
    new Date(now - ABANDONED_DRAFT_MS - 60_000),
  );
  await saveCardPin(handle.db, issuer, ids.marie!, abandoned, "4321", new Date(now - ABANDONED_DRAFT_MS - 60_000));
  await saveCardChoice(
    handle.db,
    ids.lucas!,
    lucasDraft,
    { groupId: groups["Acme France"]!, type: "physical" },
    new Date(now - ABANDONED_DRAFT_MS - 60_000),
  );
  await saveCardChoice(
    handle.db,
    ids.marie!,
    recent,
    { groupId: groups["CSE Acme"]!, type: "physical" },
    new Date(now - 60_000),
  );

  await saveCardChoice(
    handle.db,
    ids.marie!,
    newRequestId(),
    { groupId: groups["CSE Acme"]!, type: "physical" },
    new Date(now),
  );
  const left = async (id: string) =>
    (await handle.db.selectFrom("card_requests").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
  expect(await left(abandoned)).toBe(false);
  expect(await left(recent)).toBe(true);
  expect(await left(lucasDraft)).toBe(true);
});

test("marie's virtual card: created at once, linked to the funder's wallets, one licence used; a replay makes nothing", async () => {
  const before = await cardsOf(ids.marie!);
  const requestId = newRequestId();
  expect(
    await saveCardChoice(handle.db, ids.marie!, requestId, { groupId: groups["Acme France"]!, type: "virtual" }),
  ).toEqual({ kind: "ok" });
  const created = await submitCardRequest(handle.db, issuer, ids.marie!, requestId);
  expect(created.kind).toBe("created");
  const cardId = (created as { cardId: string }).cardId;
  expect(cardId).toMatch(/^card_/);
  const card = await handle.db.selectFrom("cards").selectAll().where("id", "=", cardId).executeTakeFirstOrThrow();
  expect(card).toMatchObject({
    user_id: ids.marie,
    group_id: groups["Acme France"],
    type: "virtual",
    status: "active",
    frozen: 0,
    shipping_status: null,
    pin_can_update: 0,
  });
  expect(card.last_four).toMatch(/^\d{4}$/);
  const linked = await handle.db
    .selectFrom("card_wallets")
    .innerJoin("wallets", "wallets.id", "card_wallets.wallet_id")
    .select("wallets.group_id")
    .where("card_id", "=", cardId)
    .execute();
  expect(linked.length).toBeGreaterThan(0);
  expect(linked.every((w) => w.group_id === groups["Acme France"])).toBe(true);
  expect(await freeLicences(ids.marie!, "virtual")).toBe(0);
  const notification = await handle.db
    .selectFrom("notifications")
    .selectAll()
    .where("data_id", "=", cardId)
    .executeTakeFirstOrThrow();
  expect(notification.type).toBe("card_created_to_user_notification");

  expect(await submitCardRequest(handle.db, issuer, ids.marie!, requestId)).toEqual({ kind: "replayed", cardId });
  expect(
    await saveCardChoice(handle.db, ids.marie!, requestId, { groupId: groups["Acme France"]!, type: "virtual" }),
  ).toEqual({ kind: "submitted" });
  expect(
    await saveCardChoice(handle.db, ids.marie!, newRequestId(), { groupId: groups["Acme France"]!, type: "virtual" }),
  ).toEqual({ kind: "noLicence" });
  expect((await cardsOf(ids.marie!)).length).toBe(before.length + 1);
});

test("two submits of one request at once: one card, one licence", async () => {
  const requestId = await physicalDraft(ids.marie!, groups["CSE Acme"]!);
  const results = await Promise.all([1, 2, 3].map(() => submitCardRequest(handle.db, issuer, ids.marie!, requestId)));
  expect(results.filter((r) => r.kind === "created")).toHaveLength(1);
  expect(results.filter((r) => r.kind === "replayed")).toHaveLength(2);
  expect(await freeLicences(ids.marie!, "physical")).toBe(0);
  const made = await handle.db
    .selectFrom("cards")
    .select("id")
    .where("user_id", "=", ids.marie!)
    .where("group_id", "=", groups["CSE Acme"]!)
    .where("created_at", ">", new Date(Date.now() - 60_000).toISOString())
    .execute();
  expect(made).toHaveLength(1);
});

test("two different requests racing for lucas's last virtual licence: exactly one wins", async () => {
  const [a, b] = [newRequestId(), newRequestId()];
  expect(await saveCardChoice(handle.db, ids.lucas!, a, { groupId: groups["Acme France"]!, type: "virtual" })).toEqual({
    kind: "ok",
  });
  expect(await saveCardChoice(handle.db, ids.lucas!, b, { groupId: groups["Acme France"]!, type: "virtual" })).toEqual({
    kind: "ok",
  });
  const results = await Promise.all([
    submitCardRequest(handle.db, issuer, ids.lucas!, a),
    submitCardRequest(handle.db, issuer, ids.lucas!, b),
  ]);
  expect(results.map((r) => r.kind).sort()).toEqual(["created", "noLicence"]);
  expect(await freeLicences(ids.lucas!, "virtual")).toBe(0);
  expect(await cardsOf(ids.lucas!)).toHaveLength(1);
  // The loser is still a draft: nothing was taken for it.
  const loser = results[0]!.kind === "noLicence" ? a : b;
  expect((await getCardRequest(handle.db, ids.lucas!, loser))?.status).toBe("draft");
});

test("an address the issuer refuses maps onto its field and gives the licence back; the corrected one goes through", async () => {
  const requestId = await physicalDraft(ids.lucas!, groups["Acme France"]!, "9753");
  await saveShippingAddress(handle.db, ids.lucas!, requestId, { ...LYON, country: "CH" });
  expect(await submitCardRequest(handle.db, issuer, ids.lucas!, requestId)).toEqual({
    kind: "addressRefused",
    field: "country",
  });
  await saveShippingAddress(handle.db, ids.lucas!, requestId, { ...LYON, zipcode: "6900" });
  expect(await submitCardRequest(handle.db, issuer, ids.lucas!, requestId)).toEqual({
    kind: "addressRefused",
    field: "zipcode",
  });
  expect(await freeLicences(ids.lucas!, "physical")).toBe(1);
  expect((await getCardRequest(handle.db, ids.lucas!, requestId))?.status).toBe("draft");

  await saveShippingAddress(handle.db, ids.lucas!, requestId, LYON);
  const created = await submitCardRequest(handle.db, issuer, ids.lucas!, requestId);
  expect(created.kind).toBe("created");
  expect(await freeLicences(ids.lucas!, "physical")).toBe(0);
  const card = await handle.db
    .selectFrom("cards")
    .selectAll()
    .where("id", "=", (created as { cardId: string }).cardId)
    .executeTakeFirstOrThrow();
  expect(card).toMatchObject({
    type: "physical",
    shipping_status: "pending",
    shipping_line1: LYON.line1,
    shipping_city: "Lyon",
    shipping_country: "FR",
    pin_can_update: 1,
  });
  // The delivery address becomes the profile's (spec 000 §7 "Update profile" then "shipping_address_source user").
  const user = await handle.db.selectFrom("users").selectAll().where("id", "=", ids.lucas!).executeTakeFirstOrThrow();
  expect([user.address_line1, user.address_zipcode, user.address_city, user.address_country]).toEqual([
    LYON.line1,
    LYON.zipcode,
    LYON.city,
    LYON.country,
  ]);
  expect(user.issuer_cardholder_ref).toBeTruthy();
  // The issuer holds the chosen PIN.
  const reveal = await issuer.createRevealSession(card.issuer_ref, "pin", "");
  expect(await issuer.consumeReveal((reveal as { url: string }).url.split("/").pop()!)).toEqual({
    kind: "pin",
    pin: "9753",
  });
});

test("a PIN the issuer cannot read sends the user back to the PIN step, licence returned", async () => {
  await handle.db
    .insertInto("licences")
    .values({
      id: "lic_extra_paul",
      group_id: groups["Acme France"]!,
      user_id: ids.paul!,
      license_type: "physical_card",
      metadata: "{}",
      used_at: null,
    })
    .execute();
  const requestId = await physicalDraft(ids.paul!, groups["Acme France"]!);
  await handle.db
    .updateTable("card_requests")
    .set({ pin_ciphertext: Buffer.from("not a ciphertext").toString("base64") })
    .where("id", "=", requestId)
    .execute();
  expect(await submitCardRequest(handle.db, issuer, ids.paul!, requestId)).toEqual({ kind: "pinRefused" });
  expect((await getCardRequest(handle.db, ids.paul!, requestId))?.hasPin).toBe(false);
  expect(await freeLicences(ids.paul!, "physical")).toBe(1);
});

test("a card the issuer is still making appears once the issuer has finished", async () => {
  const requestId = await physicalDraft(ids.paul!, groups["Acme France"]!);
  const before = (await cardsOf(ids.paul!)).length;
  expect(await submitCardRequest(handle.db, slowIssuer, ids.paul!, requestId)).toEqual({
    kind: "created",
    cardId: null,
  });
  expect(await hasCardInTheMaking(handle.db, ids.paul!)).toBe(true);
  await settleCardRequests(handle.db, slowIssuer, ids.paul!);
  expect(await cardsOf(ids.paul!)).toHaveLength(before);
  // The issuer finishes (its clock moves on).
  await handle.db
    .updateTable("sandbox_issuer_cards")
    .set({ visible_at: new Date(Date.now() - 1000).toISOString() })
    .where("visible_at", "is not", null)
    .execute();
  await Promise.all([
    settleCardRequests(handle.db, slowIssuer, ids.paul!),
    settleCardRequests(handle.db, slowIssuer, ids.paul!),
  ]);
  expect(await cardsOf(ids.paul!)).toHaveLength(before + 1);
  expect(await hasCardInTheMaking(handle.db, ids.paul!)).toBe(false);
  expect((await getCardRequest(handle.db, ids.paul!, requestId))?.status).toBe("issued");
  expect(await submitCardRequest(handle.db, slowIssuer, ids.paul!, requestId)).toMatchObject({ kind: "replayed" });
});
