import { sql } from "kysely";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { createRefund } from "../db/factories";
import { openTestDatabase } from "../../../tests/support/test-database";
import { approvedPayment, BOOKSHOP, paymentPerson, TUESDAY } from "../../../tests/support/payment-test-kit";
import { capture } from "./authorisation-lifecycle";
import { getCardDetail } from "./cards";
import { getWalletDetail, listWallets } from "./wallets";

/**
 * Issue 30 §5: one reserved figure per wallet — pending card payments and refund holds — with its parts, the same
 * on the wallet page, the wallet list and the card page; available = total − reserved everywhere.
 */
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

const WALLETS = [
  { name: "Cadeaux", type: "gift", balance: 10000 },
  { name: "Culture", type: "culture", balance: 5000 },
];

/** A person whose Cadeaux wallet holds a 12,50 € card payment and a 30,00 € refund request, and one of each kind. */
async function personWithHolds() {
  const { db } = handle;
  const person = await paymentPerson(db, { wallets: WALLETS });
  const card = person.cards["4242"]!;
  const payment = await approvedPayment(db, card, { merchant: BOOKSHOP, amount: 1250 });
  const type = await db
    .insertInto("expense_types")
    .values({
      id: `ext_${person.userId}`,
      technical_name: `gift_${person.userId}`,
      name_fr: "Cadeaux",
      name_en: "Gifts",
      name_nl: "Cadeaus",
      front_disabled: 0,
      position: 0,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const refund = (status: "sent" | "to_correct" | "cancelled", amount: number) =>
    createRefund(db, { user_id: person.userId, type_id: type.id, amount, status }, [
      { walletId: person.wallets.Cadeaux!, amount },
    ]);
  await refund("sent", 2000);
  await refund("to_correct", 1000);
  // A cancelled request holds nothing (its reservation was released).
  await refund("cancelled", 4000);
  return { person, card, payment };
}

test("a pending card payment and refund holds on one wallet: one reserved figure and its parts, everywhere alike", async () => {
  const { person, card } = await personWithHolds();
  // Someone else's payment and hold on their own wallets never count on this person's.
  await personWithHolds();

  const gift = (await getWalletDetail(handle.db, person.userId, person.wallets.Cadeaux!, TUESDAY))!;
  expect(gift).toMatchObject({ frozen: 1250, refundHolds: 3000, reserved: 4250, total: 10000, available: 5750 });
  expect(gift.available).toBe(gift.total! - gift.reserved);
  expect(gift.reserved).toBe(gift.frozen + gift.refundHolds);

  const listed = (await listWallets(handle.db, person.userId, TUESDAY)).find((w) => w.name === "Cadeaux")!;
  expect(listed).toMatchObject({ frozen: 1250, refundHolds: 3000, reserved: 4250, available: 5750 });
  expect((await listWallets(handle.db, person.userId, TUESDAY)).find((w) => w.name === "Culture")).toMatchObject({
    frozen: 0,
    refundHolds: 0,
    reserved: 0,
    available: 5000,
  });

  const detail = (await getCardDetail(handle.db, person.userId, card))!;
  expect(detail.balances).toEqual({
    available: 5750 + 5000,
    reserved: 4250,
    total: 15000,
    reservedParts: { frozen: 1250, refundHolds: 3000 },
    hasUnlimited: false,
  });
});

test("captured, the payment leaves the reserved figure; the refund holds stay; a foreign id reads nothing", async () => {
  const { person, card, payment } = await personWithHolds();
  const stranger = await paymentPerson(handle.db, { wallets: WALLETS });
  expect(await capture({ db: handle.db }, payment, 1250)).toMatchObject({ kind: "captured" });
  const gift = (await getWalletDetail(handle.db, person.userId, person.wallets.Cadeaux!, TUESDAY))!;
  expect(gift).toMatchObject({ frozen: 0, refundHolds: 3000, reserved: 3000, total: 10000 - 1250 });
  expect(gift.available).toBe(10000 - 1250 - 3000);
  expect((await getCardDetail(handle.db, person.userId, card))!.balances.reservedParts).toEqual({
    frozen: 0,
    refundHolds: 3000,
  });
  expect(await getWalletDetail(handle.db, stranger.userId, person.wallets.Cadeaux!)).toBeNull();
  expect(await getCardDetail(handle.db, stranger.userId, card)).toBeNull();
});

test("an unlimited wallet has a reserved figure but no amount; the card's figures leave it out and say so", async () => {
  const { db } = handle;
  const person = await paymentPerson(db, {
    wallets: [
      { name: "Cadeaux", type: "gift", balance: 10000 },
      { name: "Culture", type: "culture" },
    ],
  });
  await db.updateTable("wallets").set({ unlimited: 1 }).where("id", "=", person.wallets.Culture!).execute();
  const type = await db.selectFrom("expense_types").select("id").executeTakeFirstOrThrow();
  await createRefund(db, { user_id: person.userId, type_id: type.id, amount: 16590 }, [
    { walletId: person.wallets.Culture!, amount: 16590 },
  ]);
  const culture = (await getWalletDetail(db, person.userId, person.wallets.Culture!, TUESDAY))!;
  expect(culture).toMatchObject({ available: null, total: null, frozen: 0, refundHolds: 16590, reserved: 16590 });
  const balances = (await getCardDetail(db, person.userId, person.cards["4242"]!))!.balances;
  expect(balances).toMatchObject({ available: 10000, reserved: 0, total: 10000, hasUnlimited: true });
});

// Skipped on PostgreSQL, with its reason: this reads SQLite's EXPLAIN QUERY PLAN; PostgreSQL's planner picks a
// sequential scan on a test's few rows whatever the indexes: its plans tell something on a company-sized
// dataset (issue 35).
test.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
  "SQLite sums a wallet's pending card payments from an index, not from its whole history",
  async () => {
    const plan = await sql<{ detail: string }>`explain query plan
    select wallet_id, sum(amount) from wallet_transactions
    where wallet_id in (${"wal_a"}, ${"wal_b"}) and status = ${"frozen"} group by wallet_id`.execute(handle.db);
    const steps = plan.rows.map((r) => r.detail).join(" | ");
    expect(steps).toContain("COVERING INDEX wallet_transactions_by_wallet_status (wallet_id=? AND status=?)");
  },
);
