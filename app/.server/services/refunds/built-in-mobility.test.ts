import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle, DB } from "../../db";
import { buildFile, createAccount, createPartner, type CreatedAccount } from "../../db/factories";
import { openTestDatabase } from "../../../../tests/support/test-database";
import { newId } from "../../ids";
import { SandboxMessenger } from "../../providers/messaging/sandbox";
import { todayInParis } from "~/domain/dates";
import { createDraft, saveDraftAnswers } from "./drafts";
import { BUILT_IN_MOBILITY, chooseExpenseType, listExpenseTypes, listRefunds, submitRefund } from "./requests";
import { reviewRefund } from "./review";

/**
 * The built-in mobility type on a catalogue without one (spec 001 §2.6, issue 33's audit, decision 0065): offered
 * with allowances only, stored in the catalogue the first time it is chosen — once, even chosen twice at the same
 * moment — so that a draft and a request can name it, and never a request's before that. SQLite, and PostgreSQL
 * with TEST_DATABASE_URL.
 */
let handle: DatabaseHandle;
let db: DB;
let partnerId: string;
const REFUNDS = { any: true };

beforeAll(async () => {
  handle = await openTestDatabase();
  db = handle.db;
  await db
    .insertInto("expense_types")
    .values({
      id: newId("ext"),
      technical_name: "culture",
      name_fr: "Culture",
      name_en: "Culture",
      name_nl: "Cultuur",
      front_disabled: 0,
      position: 1,
    })
    .execute();
  partnerId = (await createPartner(db, { name_fr: "Cycles du Rhône" })).id;
}, 30_000);
afterAll(() => handle.close());

const account = (allowances: boolean): Promise<CreatedAccount> =>
  createAccount(db, {
    email: `mobility-${newId("e")}@example.com`,
    passwordHash: "unused",
    features: { expenseRequests: REFUNDS, allowances: { any: allowances } },
    wallets: [{ name: "Mobilité", type: "mobility", balance: 10_000 }],
  });

const storedMobilityTypes = () =>
  db.selectFrom("expense_types").select(["id", "name_fr"]).where("technical_name", "=", "mobility").execute();

/** A request of 12,00 € of this type from this draft, paid from the mobility wallet, the account's own name sworn. */
async function requestOf(who: CreatedAccount, typeId: string, draftId: string) {
  const file = buildFile({ user_id: who.userId });
  await db.insertInto("files").values(file).execute();
  return {
    draftId,
    requestId: null,
    typeId,
    partnerId,
    ticketDate: todayInParis(),
    amount: 1200,
    iban: "FR7630006000011234567890189",
    paymentMethods: [{ walletId: who.wallets["Mobilité"]!, amount: 1200 }],
    mediaId: file.id,
    secondMediaId: null,
    swornStatement: true,
    swornName: "Alex Essai",
  };
}

test("offered with allowances only, not stored: a draft cannot name it and a request of it is refused, not failed", async () => {
  const alex = await account(true);
  const offered = await listExpenseTypes(db, alex.userId, "nl");
  expect(offered.at(-1)).toEqual({
    id: BUILT_IN_MOBILITY.id,
    technicalName: "mobility",
    name: "Mobiliteit",
    disabled: false,
    stored: false,
  });
  const without = await account(false);
  expect((await listExpenseTypes(db, without.userId, "fr")).map((t) => t.technicalName)).toEqual(["culture"]);

  // What the audit met: a draft's type is a foreign key to the catalogue.
  const draft = await createDraft(db, alex.userId);
  await expect(saveDraftAnswers(db, alex.userId, draft.id, { typeId: BUILT_IN_MOBILITY.id })).rejects.toThrow();
  const refused = await submitRefund(
    db,
    new SandboxMessenger(db),
    alex.userId,
    await requestOf(alex, BUILT_IN_MOBILITY.id, draft.id),
  );
  expect(refused.kind).toBe("invalid");
  if (refused.kind === "invalid") expect(refused.problems).toContainEqual({ field: "type", code: "typeRequired" });
  expect(await storedMobilityTypes()).toEqual([]);
});

test("chosen, it is stored once under its offered id, even chosen twice at once; then drafted, sent, listed and approved", async () => {
  const alex = await account(true);
  const bea = await account(true);
  // Someone without allowances cannot choose it, and choosing nothing offered stores nothing.
  const without = await account(false);
  expect(await chooseExpenseType(db, without.userId, BUILT_IN_MOBILITY.id, "fr")).toBeNull();
  expect(await chooseExpenseType(db, alex.userId, "ext_unknown", "fr")).toBeNull();
  expect(await storedMobilityTypes()).toEqual([]);

  const [first, second] = await Promise.all([
    chooseExpenseType(db, alex.userId, BUILT_IN_MOBILITY.id, "fr"),
    chooseExpenseType(db, bea.userId, BUILT_IN_MOBILITY.id, "en"),
  ]);
  expect(first).toEqual({
    id: BUILT_IN_MOBILITY.id,
    technicalName: "mobility",
    name: "Mobilité",
    disabled: false,
    stored: true,
  });
  expect(second).toMatchObject({ id: BUILT_IN_MOBILITY.id, name: "Mobility", stored: true });
  expect(await chooseExpenseType(db, alex.userId, BUILT_IN_MOBILITY.id, "fr")).toEqual(first);
  expect(await storedMobilityTypes()).toEqual([{ id: BUILT_IN_MOBILITY.id, name_fr: "Mobilité" }]);

  // Listed once, after the catalogue's own types; still not offered to someone without allowances.
  expect((await listExpenseTypes(db, alex.userId, "fr")).map((t) => [t.name, t.stored])).toEqual([
    ["Culture", true],
    ["Mobilité", true],
  ]);
  expect((await listExpenseTypes(db, without.userId, "fr")).map((t) => t.technicalName)).toEqual(["culture"]);
  expect(await chooseExpenseType(db, without.userId, BUILT_IN_MOBILITY.id, "fr")).toBeNull();

  const draft = await createDraft(db, alex.userId);
  await saveDraftAnswers(db, alex.userId, draft.id, { typeId: first!.id });
  const sent = await submitRefund(
    db,
    new SandboxMessenger(db),
    alex.userId,
    await requestOf(alex, first!.id, draft.id),
  );
  expect(sent.kind).toBe("created");
  const { items } = await listRefunds(db, alex.userId, { tab: "in-progress", page: 1, locale: "fr" });
  expect(items.map((r) => [r.typeName, r.amount])).toEqual([["Mobilité", 1200]]);
  // One person never sees another's request of the same type.
  expect((await listRefunds(db, bea.userId, { tab: "in-progress", page: 1, locale: "fr" })).items).toEqual([]);
  expect((await reviewRefund(db, new SandboxMessenger(db), items[0]!.id, { kind: "approve" })).kind).toBe("approved");
});

test("a catalogue with its own mobility type offers that one only, and choosing it stores nothing", async () => {
  const own = await openTestDatabase();
  try {
    await own.db
      .insertInto("expense_types")
      .values({
        id: "ext_catalogue_mobility",
        technical_name: "mobility",
        name_fr: "Mobilité durable",
        name_en: "Sustainable mobility",
        name_nl: "Duurzame mobiliteit",
        front_disabled: 0,
        position: 1,
      })
      .execute();
    const alex = await createAccount(own.db, {
      email: "alex@example.com",
      passwordHash: "unused",
      features: { expenseRequests: REFUNDS, allowances: { any: true } },
    });
    expect(await listExpenseTypes(own.db, alex.userId, "fr")).toEqual([
      {
        id: "ext_catalogue_mobility",
        technicalName: "mobility",
        name: "Mobilité durable",
        disabled: false,
        stored: true,
      },
    ]);
    expect(await chooseExpenseType(own.db, alex.userId, BUILT_IN_MOBILITY.id, "fr")).toBeNull();
    expect(await chooseExpenseType(own.db, alex.userId, "ext_catalogue_mobility", "fr")).toMatchObject({
      id: "ext_catalogue_mobility",
    });
    expect(await own.db.selectFrom("expense_types").select("id").execute()).toEqual([{ id: "ext_catalogue_mobility" }]);
  } finally {
    await own.close();
  }
});
