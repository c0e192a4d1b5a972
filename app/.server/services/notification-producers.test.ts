import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { createAccount, createAllowanceRow, createRefund, type CreatedAccount } from "../db/factories";
import { openDemoDatabase } from "../../../tests/support/test-database";
import { newId } from "../ids";
import { SandboxIssuer } from "../providers/issuer/sandbox";
import { SandboxMessenger } from "../providers/messaging/sandbox";
import { SandboxPushSender } from "../providers/push/sandbox";
import { reviewAllowance } from "./allowances/review";
import { newRequestId, saveCardChoice, submitCardRequest } from "./card-creation";
import { payDuePayouts } from "./refunds/payouts";
import { cancelRefund } from "./refunds/requests";
import { reviewRefund } from "./refunds/review";
import { getWalletDetail, reloadWallet } from "./wallets";
import {
  defaultNotificationPreferences,
  saveNotificationPreferences,
  type NotificationPreferences,
} from "./notification-preferences";

/**
 * The platform's events as they produce notifications (issue 16 §3, decision 0030): each producer's row in the
 * centre, then its e-mail and its push, each only when the person's preference (/settings/notifications) allows
 * it; a card created has no preference and is always sent. Real services on a real database (SQLite, and
 * PostgreSQL with TEST_DATABASE_URL), the sandbox messenger and push sender (both write the outbox table).
 */
let handle: DatabaseHandle;
let issuer: SandboxIssuer;
let cultureType: string;

beforeAll(async () => {
  ({ handle } = await openDemoDatabase());
  issuer = new SandboxIssuer(handle.db, join(mkdtempSync(join(tmpdir(), "issuer-")), "vault.key"));
  cultureType = (
    await handle.db
      .selectFrom("expense_types")
      .select("id")
      .where("technical_name", "=", "culture")
      .executeTakeFirstOrThrow()
  ).id;
}, 60_000);
afterAll(() => handle.close());

const senders = () => ({ messenger: new SandboxMessenger(handle.db), push: new SandboxPushSender(handle.db) });

type Channel = "mail" | "push";
/** Every setting off but `on` (the expenseRequests preference covers refunds and allowances). */
function only(on: readonly Channel[]): NotificationPreferences {
  const preferences = defaultNotificationPreferences();
  for (const key of Object.keys(preferences) as (keyof NotificationPreferences)[])
    preferences[key] = { mail: on.includes("mail"), push: on.includes("push") };
  return preferences;
}

async function person(on: readonly Channel[], extra: Parameters<typeof createAccount>[1] | object = {}) {
  const account = await createAccount(handle.db, {
    email: `producer-${newId("e")}@example.com`,
    passwordHash: "unused",
    ...extra,
  });
  await saveNotificationPreferences(handle.db, account.userId, only(on));
  return account;
}

/** What went out to this person: the e-mails (to their address) and the pushes (to their id). */
async function sent(account: CreatedAccount) {
  const rows = await handle.db
    .selectFrom("outbox")
    .select(["channel", "recipient", "subject", "body"])
    .where((eb) =>
      eb.or([
        eb.and([eb("channel", "=", "email"), eb("recipient", "=", account.email)]),
        eb.and([eb("channel", "=", "push"), eb("recipient", "=", account.userId)]),
      ]),
    )
    .execute();
  return { mails: rows.filter((r) => r.channel === "email"), pushes: rows.filter((r) => r.channel === "push") };
}

/** The facts stored with this person's notifications, oldest first (issue 30 §4). */
const factsOf = async (account: CreatedAccount) =>
  (
    await handle.db
      .selectFrom("notifications")
      .select("facts")
      .where("user_id", "=", account.userId)
      .orderBy("created_at")
      .execute()
  ).map((row) => (row.facts === null ? null : (JSON.parse(row.facts) as unknown)));

const rowsOf = (account: CreatedAccount) =>
  handle.db
    .selectFrom("notifications")
    .select(["type", "data_id"])
    .where("user_id", "=", account.userId)
    .orderBy("created_at")
    .execute();

/** A refund request of the person's, sent and waiting for the funder: 30,00 €, of which 28,50 € to refund. */
const sentRequest = async (account: CreatedAccount) =>
  (
    await createRefund(handle.db, {
      user_id: account.userId,
      type_id: cultureType,
      amount: 3000,
      amount_to_refund: 2850,
    })
  ).id;

/** A refund's facts as stored: Culture, no partner, the figures of `sentRequest`. */
const refundFacts = (extra: object = {}) => ({
  amount: 3000,
  amountToRefund: 2850,
  expenseType: "Culture",
  partner: null,
  reason: null,
  payoutDate: null,
  ...extra,
});

/** An allowance's facts as `createAllowanceRow` makes it: carpooling, 24,00 €, today only. */
const allowanceFacts = (extra: object = {}) => {
  const today = new Date().toISOString().slice(0, 10);
  return { allowanceType: "carpooling", amount: 2400, startAt: today, endsAt: today, reason: null, ...extra };
};
/** French money puts a no-break space before "€": compared here as a plain space. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");
const todayInWords = () => new Date().toISOString().slice(0, 10).split("-").reverse().join("/");

interface Producer {
  type: string;
  /** Makes the event happen for this person; answers the notification's target (its data id). */
  run: (account: CreatedAccount, deps: ReturnType<typeof senders>) => Promise<string>;
  /** The path the push carries. */
  path: (dataId: string) => string;
  /** The facts stored with the row. */
  facts: () => object;
  /** What the push says: the sentence of those facts. */
  says: () => string | RegExp;
}

const producers: Producer[] = [
  {
    type: "expense_request_approved_notification",
    run: async (account, { messenger, push }) => {
      const id = await sentRequest(account);
      expect((await reviewRefund(handle.db, messenger, id, { kind: "approve" }, { push })).kind).toBe("approved");
      return id;
    },
    path: (id) => `/plans/expense-requests#exr-${id}`,
    facts: () => refundFacts({ payoutDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) as unknown }),
    says: () =>
      /^Demande de remboursement de 30,00 € \(Culture\) acceptée : 28,50 € seront remboursés le \d\d\/\d\d\/\d{4}\.$/,
  },
  {
    type: "expense_request_refused_notification",
    run: async (account, { messenger, push }) => {
      const id = await sentRequest(account);
      const decision = { kind: "refuse", reason: "Ticket illisible" } as const;
      expect((await reviewRefund(handle.db, messenger, id, decision, { push })).kind).toBe("refused");
      return id;
    },
    path: (id) => `/plans/expense-requests?tab=finished#exr-${id}`,
    facts: () => refundFacts({ reason: "Ticket illisible" }),
    says: () => "Demande de remboursement de 30,00 € (Culture) refusée : « Ticket illisible »",
  },
  {
    type: "expense_request_rectification_needed_notification",
    run: async (account, { messenger, push }) => {
      const id = await sentRequest(account);
      const decision = { kind: "askCorrection", reason: "Montant à corriger" } as const;
      expect((await reviewRefund(handle.db, messenger, id, decision, { push })).kind).toBe("toCorrect");
      return id;
    },
    path: (id) => `/plans/expense-requests#exr-${id}`,
    facts: () => refundFacts({ reason: "Montant à corriger" }),
    says: () => "Demande de remboursement de 30,00 € (Culture) à corriger : « Montant à corriger »",
  },
  {
    type: "expense_request_cancelled_notification",
    run: async (account, { messenger, push }) => {
      const id = await sentRequest(account);
      expect((await cancelRefund(handle.db, messenger, account.userId, id, { push })).kind).toBe("cancelled");
      return id;
    },
    path: (id) => `/plans/expense-requests?tab=finished#exr-${id}`,
    facts: () => refundFacts(),
    says: () => "Demande de remboursement de 30,00 € (Culture) annulée.",
  },
  {
    type: "expense_request_finished_notification",
    run: async (account, { messenger, push }) => {
      const id = (
        await createRefund(handle.db, {
          user_id: account.userId,
          type_id: cultureType,
          amount: 3000,
          status: "approved",
        })
      ).id;
      await handle.db
        .insertInto("payouts")
        .values({
          id: newId("pay"),
          user_id: account.userId,
          expense_request_id: id,
          amount: 3000,
          iban: "FR7630006000011234567890189",
          scheduled_for: "2026-01-05",
          status: "scheduled",
          created_at: new Date().toISOString(),
          paid_at: null,
        })
        .execute();
      const { paid } = await payDuePayouts(handle.db, messenger, "2026-01-05", { push });
      expect(paid).toContain(id);
      return id;
    },
    path: (id) => `/plans/expense-requests?tab=finished#exr-${id}`,
    facts: () => refundFacts({ amountToRefund: 3000 }),
    says: () => "Demande de remboursement de 30,00 € (Culture) payée : 30,00 € versés sur votre compte.",
  },
  {
    type: "allowance_approved_notification",
    run: async (account, { messenger, push }) => {
      const { id } = await createAllowanceRow(handle.db, { user_id: account.userId, group_id: account.groupId });
      expect((await reviewAllowance(handle.db, id, { kind: "approve" }, { messenger, push })).kind).toBe("approved");
      return id;
    },
    path: (id) => `/plans/allowances#alw-${id}`,
    facts: () => allowanceFacts(),
    says: () =>
      `Demande d’indemnité de 24,00 € (Covoiturage, du ${todayInWords()} au ${todayInWords()}) acceptée : elle sera versée chaque mois.`,
  },
  {
    type: "allowance_refused_notification",
    run: async (account, { messenger, push }) => {
      const { id } = await createAllowanceRow(handle.db, { user_id: account.userId, group_id: account.groupId });
      const decision = { kind: "refuse", reason: "Trajet non éligible" } as const;
      expect((await reviewAllowance(handle.db, id, decision, { messenger, push })).kind).toBe("refused");
      return id;
    },
    path: (id) => `/plans/allowances#alw-${id}`,
    facts: () => allowanceFacts({ reason: "Trajet non éligible" }),
    says: () =>
      `Demande d’indemnité de 24,00 € (Covoiturage, du ${todayInWords()} au ${todayInWords()}) refusée : « Trajet non éligible »`,
  },
];

/** Each channel alone, neither, both. */
const COMBINATIONS: readonly (readonly Channel[])[] = [["mail"], ["push"], [], ["mail", "push"]];

describe("refund and allowance decisions: each type × e-mail and push, per the expenseRequests preference", () => {
  for (const producer of producers)
    for (const on of COMBINATIONS)
      test(`${producer.type} with ${on.length ? on.join(" and ") : "nothing"} on`, async () => {
        const account = await person(on);
        const dataId = await producer.run(account, senders());
        // The row is written whatever the preferences: the centre shows every event.
        expect(await rowsOf(account)).toEqual([{ type: producer.type, data_id: dataId }]);
        const { mails, pushes } = await sent(account);
        expect(mails).toHaveLength(on.includes("mail") ? 1 : 0);
        expect(pushes).toHaveLength(on.includes("push") ? 1 : 0);
        // The row keeps the request's facts of that moment; the push says them and leads to the request's own entry.
        expect(await factsOf(account)).toEqual([producer.facts()]);
        if (on.includes("push")) {
          const [says, path] = plain(pushes[0]!.body).split("\n");
          expect(says).toMatch(producer.says());
          expect(path).toBe(producer.path(dataId));
        }
      });
});

describe("a card created: no preference, always mailed and pushed", () => {
  for (const on of [[], ["mail", "push"]] as (readonly Channel[])[])
    test(`with ${on.length ? "everything" : "nothing"} on in the settings`, async () => {
      const account = await person(on, { freeLicences: ["virtual_card"] });
      const requestId = newRequestId();
      expect(
        await saveCardChoice(handle.db, account.userId, requestId, { groupId: account.groupId, type: "virtual" }),
      ).toEqual({ kind: "ok" });
      const created = await submitCardRequest(handle.db, issuer, account.userId, requestId, new Date(), senders());
      expect(created.kind).toBe("created");
      const cardId = (created as { cardId: string }).cardId;
      expect(await rowsOf(account)).toEqual([{ type: "card_created_to_user_notification", data_id: cardId }]);
      const lastFour = (
        await handle.db.selectFrom("cards").select("last_four").where("id", "=", cardId).executeTakeFirstOrThrow()
      ).last_four;
      expect(await factsOf(account)).toEqual([{ cardType: "virtual", lastFour }]);
      const says = `Votre nouvelle carte virtuelle •••• ${lastFour} est prête.`;
      const { mails, pushes } = await sent(account);
      expect(mails).toMatchObject([{ subject: says }]);
      expect(pushes).toHaveLength(1);
      expect(pushes[0]!.body).toBe(`${says}\n/cards/${cardId}`);
      // A replay records and sends nothing more.
      expect(await submitCardRequest(handle.db, issuer, account.userId, requestId, new Date(), senders())).toEqual({
        kind: "replayed",
        cardId,
      });
      expect(await rowsOf(account)).toHaveLength(1);
      expect((await sent(account)).pushes).toHaveLength(1);
    });
});

test("an event of one person's never reaches another's outbox or centre", async () => {
  const owner = await person(["mail", "push"]);
  const bystander = await person(["mail", "push"]);
  await producers[0]!.run(owner, senders());
  expect(await rowsOf(bystander)).toEqual([]);
  expect(await sent(bystander)).toEqual({ mails: [], pushes: [] });
});

describe("a wallet reloaded by its funder: per the wallets preference", () => {
  const deposit = { amount: 4000, startDate: "2026-11-24", endDate: "2027-12-31" };
  const now = new Date("2026-11-24T10:00:00Z");

  for (const on of COMBINATIONS)
    test(`with ${on.length ? on.join(" and ") : "nothing"} on: the balance, its history line, the notification`, async () => {
      const account = await person(on, { wallets: [{ name: "Cadeaux", type: "gift", balance: 1000 }] });
      const walletId = account.wallets.Cadeaux!;
      const result = await reloadWallet({ db: handle.db, ...senders() }, walletId, deposit, now);
      expect(result.kind).toBe("reloaded");
      const balances = await handle.db
        .selectFrom("wallet_balances")
        .select(["balance", "deposit_amount", "start_date", "end_date"])
        .where("wallet_id", "=", walletId)
        .execute();
      expect(balances).toContainEqual({
        balance: 4000,
        deposit_amount: 4000,
        start_date: "2026-11-24",
        end_date: "2027-12-31",
      });
      const history = await handle.db
        .selectFrom("wallet_transactions")
        .select(["amount", "main_comment"])
        .where("wallet_id", "=", walletId)
        .where("amount", ">", 0)
        .where("created_at", "=", now.toISOString())
        .execute();
      expect(history).toEqual([{ amount: 4000, main_comment: "deposit" }]);
      expect(await rowsOf(account)).toEqual([{ type: "wallet_reload_notification", data_id: walletId }]);
      // Its facts: the wallet, the deposit, what it holds after it (10,00 € + 40,00 €), until when.
      expect(await factsOf(account)).toEqual([
        { wallet: "Cadeaux", amount: 4000, balance: 5000, endDate: "2027-12-31" },
      ]);
      const says = "Portefeuille Cadeaux rechargé de 40,00 € (solde 50,00 €), à utiliser jusqu’au 31/12/2027.";
      const { mails, pushes } = await sent(account);
      expect(mails).toHaveLength(on.includes("mail") ? 1 : 0);
      expect(pushes).toHaveLength(on.includes("push") ? 1 : 0);
      if (on.includes("mail")) expect(plain(mails[0]!.subject)).toBe(says);
      if (on.includes("push")) expect(plain(pushes[0]!.body)).toBe(`${says}\n/wallets/${walletId}`);
    });

  test("the wallet's page counts the new balance", async () => {
    const account = await person([], { wallets: [{ name: "Cadeaux", type: "gift", balance: 1000 }] });
    const walletId = account.wallets.Cadeaux!;
    const before = await getWalletDetail(handle.db, account.userId, walletId, now);
    await reloadWallet({ db: handle.db }, walletId, deposit, now);
    const after = await getWalletDetail(handle.db, account.userId, walletId, now);
    expect(after!.available).toBe(before!.available! + 4000);
    expect(after!.total).toBe(before!.total! + 4000);
  });

  test("refused: unknown wallet, unlimited wallet, an amount or dates that make no sense; nothing written", async () => {
    const account = await person(["mail", "push"], {
      wallets: [
        { name: "Cadeaux", type: "gift", balance: 1000 },
        { name: "Culture", type: "culture" },
      ],
    });
    await handle.db.updateTable("wallets").set({ unlimited: 1 }).where("id", "=", account.wallets.Culture!).execute();
    const deps = { db: handle.db, ...senders() };
    const gift = account.wallets.Cadeaux!;
    expect(await reloadWallet(deps, "wal_unknown", deposit, now)).toEqual({ kind: "notFound" });
    expect(await reloadWallet(deps, account.wallets.Culture!, deposit, now)).toEqual({ kind: "invalid" });
    for (const bad of [
      { ...deposit, amount: 0 },
      { ...deposit, amount: -500 },
      { ...deposit, amount: 12.5 },
      { ...deposit, amount: 10_000_001 },
      { ...deposit, endDate: "2026-11-23" },
      { ...deposit, startDate: "2027-01-01", endDate: "2026-12-31" },
      { ...deposit, endDate: "2027-02-30" },
    ])
      expect(await reloadWallet(deps, gift, bad, now), JSON.stringify(bad)).toEqual({ kind: "invalid" });
    expect(await rowsOf(account)).toEqual([]);
    expect(await sent(account)).toEqual({ mails: [], pushes: [] });
  });
});
