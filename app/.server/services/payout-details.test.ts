import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { buildUser } from "../db/factories";
import { openTestDatabase } from "../../../tests/support/test-database";
import { getPayoutDetails, rememberFirstIban } from "./payout-details";

/** The saved IBAN and postal address (decision 0054) on a real database, each person's own. */
let handle: DatabaseHandle;
const SAVED = "FR7630006000011234567890189";
const GERMAN = "DE89370400440532013000";
const at = "2026-11-01T08:00:00.000Z";
const address = {
  address_line1: "8 rue des Lilas",
  address_zipcode: "69003",
  address_city: "Lyon",
  address_country: "FR",
};
const anne = buildUser({ email: "anne@example.com", created_at: at, payout_iban: SAVED, ...address });
const bruno = buildUser({ email: "bruno@example.com", created_at: at, address_line1: "3 quai Rambaud" });
const chloe = buildUser({ email: "chloe@example.com", created_at: at, ...address, address_line2: " " });

beforeAll(async () => {
  handle = await openTestDatabase();
  await handle.db.insertInto("users").values([anne, bruno, chloe]).execute();
});
afterAll(() => handle.close());

test("each person reads their own IBAN and complete address, and nobody else's", async () => {
  expect(await getPayoutDetails(handle.db, anne.id)).toEqual({
    iban: SAVED,
    address: { line1: "8 rue des Lilas", line2: null, zipcode: "69003", city: "Lyon", country: "FR" },
  });
  // An address without postcode, city or country is no postal address; a blank second line is none.
  expect(await getPayoutDetails(handle.db, bruno.id)).toEqual({ iban: null, address: null });
  expect((await getPayoutDetails(handle.db, chloe.id)).address?.line2).toBeNull();
  expect(await getPayoutDetails(handle.db, "usr_nobody")).toEqual({ iban: null, address: null });
});

test("the first IBAN is remembered once, normalised, for that person only; a saved one is never overwritten", async () => {
  expect(await rememberFirstIban(handle.db, bruno.id, "de89 3704 0044 0532 0130 00")).toBe(true);
  expect((await getPayoutDetails(handle.db, bruno.id)).iban).toBe(GERMAN);
  expect((await getPayoutDetails(handle.db, chloe.id)).iban).toBeNull();

  expect(await rememberFirstIban(handle.db, bruno.id, SAVED)).toBe(false);
  expect(await rememberFirstIban(handle.db, anne.id, GERMAN)).toBe(false);
  expect((await getPayoutDetails(handle.db, bruno.id)).iban).toBe(GERMAN);
  expect((await getPayoutDetails(handle.db, anne.id)).iban).toBe(SAVED);
});

test("an IBAN that is not a valid SEPA IBAN is never remembered", async () => {
  expect(await rememberFirstIban(handle.db, chloe.id, "FR7630006000011234567890188")).toBe(false);
  expect(await rememberFirstIban(handle.db, chloe.id, "BR1800360305000010009795493C1")).toBe(false);
  expect(await rememberFirstIban(handle.db, "usr_nobody", SAVED)).toBe(false);
  expect((await getPayoutDetails(handle.db, chloe.id)).iban).toBeNull();
});
