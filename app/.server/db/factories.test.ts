import { afterAll, beforeAll, expect, test } from "vitest";
import { checkCredentials, getAccount, isOnboarded } from "../services/accounts";
import { listCards } from "../services/cards";
import { mustSetUpMfa, passwordChangeRequired } from "../services/security";
import { linkedWalletSummaries, listWallets } from "../services/wallets";
import { hashPassword } from "../passwords";
import { createAccount } from "./factories";
import type { DatabaseHandle } from "./index";
import { openTestDatabase } from "../../../tests/support/test-database";

/** The accounts the factories make are what the services see: the traits a test asks for hold. */
let handle: DatabaseHandle;
let passwordHash: string;
const PASSWORD = "Essai-Mot2passe!";
let n = 0;
const email = () => `factory-${++n}@example.com`;

beforeAll(async () => {
  handle = await openTestDatabase();
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(() => handle.close());

test("by default: an active, onboarded account with e-mail codes, that signs in with its password", async () => {
  const made = await createAccount(handle.db, {
    email: email(),
    passwordHash,
    cards: [{ type: "virtual", lastFour: "1111" }],
  });
  const account = (await getAccount(handle.db, made.userId))!;
  expect(account).toMatchObject({ email: made.email, mfaEnabled: true, mfaPreferred: "EMAIL", permissions: [] });
  expect(await isOnboarded(handle.db, account)).toBe(true);
  expect(await checkCredentials(handle.db, made.email, PASSWORD)).toEqual({ kind: "ok", userId: made.userId });
});

test("traits: no profile, no second factor, bypassMFA, a temporary password, disabled, invited", async () => {
  const newcomer = (await getAccount(
    handle.db,
    (await createAccount(handle.db, { email: email(), passwordHash, profile: false, mfa: null })).userId,
  ))!;
  expect(await isOnboarded(handle.db, newcomer)).toBe(false);
  expect(mustSetUpMfa(newcomer)).toBe(true);

  const exempt = (await getAccount(
    handle.db,
    (await createAccount(handle.db, { email: email(), passwordHash, mfa: null, bypassMFA: true })).userId,
  ))!;
  expect(mustSetUpMfa(exempt)).toBe(false);

  const sms = (await getAccount(
    handle.db,
    (await createAccount(handle.db, { email: email(), passwordHash, mfa: "SMS" })).userId,
  ))!;
  expect([sms.mfaEnabled, sms.mfaPreferred]).toEqual([true, "SMS"]);

  const temporary = await createAccount(handle.db, { email: email(), passwordHash, passwordChangeRequired: true });
  expect(await passwordChangeRequired(handle.db, temporary.userId)).toBe(true);

  const disabled = await createAccount(handle.db, { email: email(), passwordHash, disabled: true });
  expect(await getAccount(handle.db, disabled.userId)).toBeNull();
  expect((await checkCredentials(handle.db, disabled.email, PASSWORD)).kind).toBe("disabled");

  const invited = await createAccount(handle.db, { email: email(), passwordHash, invited: true });
  const row = await handle.db
    .selectFrom("users")
    .select(["status", "password_hash", "first_name"])
    .where("id", "=", invited.userId)
    .executeTakeFirstOrThrow();
  expect(row).toEqual({ status: "invited", password_hash: null, first_name: null });
});

test("cards in the order given, wallets with their balances and payments, linked in priority order", async () => {
  const made = await createAccount(handle.db, {
    email: email(),
    passwordHash,
    wallets: [
      { name: "Repas", type: "meal", balance: 5000, payments: [{ merchant: "Cantine", amount: 1200 }] },
      { name: "Culture", type: "culture", balance: 3000 },
    ],
    cards: [
      { type: "physical", lastFour: "4242", wallets: ["Culture", "Repas"] },
      { type: "virtual", lastFour: "5556", frozen: true },
    ],
  });
  expect(await listCards(handle.db, made.userId)).toEqual([
    { id: made.cards["4242"], type: "physical", lastFour: "4242", blocked: false },
    { id: made.cards["5556"], type: "virtual", lastFour: "5556", blocked: false },
  ]);
  expect((await listWallets(handle.db, made.userId)).map((w) => [w.name, w.available])).toEqual([
    ["Repas", 5000],
    ["Culture", 3000],
  ]);
  expect((await linkedWalletSummaries(handle.db, made.userId, made.cards["4242"]!)).map((w) => w.name)).toEqual([
    "Culture",
    "Repas",
  ]);
  const movements = await handle.db
    .selectFrom("wallet_transactions")
    .select(["amount", "merchant_name"])
    .where("wallet_id", "=", made.wallets["Repas"]!)
    .orderBy("created_at")
    .execute();
  expect(movements).toEqual([
    { amount: 6200, merchant_name: null },
    { amount: -1200, merchant_name: "Cantine" },
  ]);
});

test("a wallet named by a card must exist", async () => {
  await expect(
    createAccount(handle.db, {
      email: email(),
      passwordHash,
      cards: [{ type: "virtual", lastFour: "0000", wallets: ["Nulle part"] }],
    }),
  ).rejects.toThrow(/unknown wallet Nulle part/);
});
