import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import type { DEMO_EMAILS } from "../db/seed";
import { buildWalletBalance, createAccount, createRefund } from "../db/factories";
import { openDemoDatabase } from "../../../tests/support/test-database";
import { SandboxMessenger } from "../providers/messaging/sandbox";
import { SandboxPushSender } from "../providers/push/sandbox";
import { saveNotificationPreferences, defaultNotificationPreferences } from "./notification-preferences";
import { recordRequestEvent, requestFacts } from "./refunds/events";
import { notificationSentence, readNotificationFacts } from "~/domain/notification-facts";
import { frenchWords } from "~/i18n/words.server";
import {
  countUnread,
  deleteNotification,
  listNotifications,
  markRead,
  markUnread,
  notify,
  notifyExpiringBalances,
  NOTIFICATIONS_PAGE_SIZE,
  notificationPath,
  parseFacts,
  recordNotification,
} from "./notifications";

let handle: DatabaseHandle;
let ids: Record<keyof typeof DEMO_EMAILS, string>;

beforeAll(async () => {
  ({ handle, ids } = await openDemoDatabase());
}, 30_000);
afterAll(() => handle.close());

const outbox = (recipient: string, channel: string) =>
  handle.db
    .selectFrom("outbox")
    .selectAll()
    .where("recipient", "=", recipient)
    .where("channel", "=", channel)
    .execute();

describe("the centre's list", () => {
  test("marie's 20 seeded notifications: 16 unread, pages of 15, newest first, links to their targets", async () => {
    expect(await countUnread(handle.db, ids.marie)).toBe(16);
    const first = await listNotifications(handle.db, ids.marie, { unreadOnly: false, page: 1 });
    expect(first?.items).toHaveLength(NOTIFICATIONS_PAGE_SIZE);
    const dates = first!.items.map((n) => n.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    const second = await listNotifications(handle.db, ids.marie, { unreadOnly: false, page: 2 });
    expect(second?.items).toHaveLength(20);
    // The first of page 2's new ones: "Voir plus" lands there.
    expect(first?.nextId).toBe(second?.items[NOTIFICATIONS_PAGE_SIZE]?.id);
    expect(second?.nextId).toBeNull();
    expect(second!.items.filter((n) => n.type === "card_created_to_user_notification")[0]?.path).toMatch(
      /^\/cards\/card_/,
    );
    expect(second!.items.find((n) => n.type === "wallet_reload_notification")?.path).toMatch(/^\/wallets\//);
    const unread = await listNotifications(handle.db, ids.marie, { unreadOnly: true, page: 2 });
    expect(unread?.items).toHaveLength(16);
    expect(unread?.items.every((n) => !n.read)).toBe(true);
  });

  test("a page beyond the last is null (the route's 404), page 1 always exists", async () => {
    expect(await listNotifications(handle.db, ids.marie, { unreadOnly: false, page: 3 })).toBeNull();
    expect(await listNotifications(handle.db, ids.marie, { unreadOnly: false, page: 0 })).toBeNull();
    expect(await listNotifications(handle.db, ids.claire, { unreadOnly: true, page: 1 })).toEqual({
      items: [],
      nextId: null,
    });
    expect(await listNotifications(handle.db, ids.claire, { unreadOnly: true, page: 2 })).toBeNull();
  });
});

describe("read marking, mark unread, delete", () => {
  test("another person's notification is never changed", async () => {
    const page = await listNotifications(handle.db, ids.marie, { unreadOnly: true, page: 1 });
    const id = page!.items[0]!.id;
    expect(await markRead(handle.db, ids.claire, [id])).toBeNull();
    expect(await markUnread(handle.db, ids.claire, id)).toBe(false);
    expect(await deleteNotification(handle.db, ids.claire, id)).toBe(false);
    expect(await countUnread(handle.db, ids.marie)).toBe(16);
  });

  test("marks read, unread, deletes; the count follows", async () => {
    const page = await listNotifications(handle.db, ids.marie, { unreadOnly: true, page: 1 });
    const [a, b] = page!.items;
    expect(await markRead(handle.db, ids.marie, [a!.id, b!.id, "ntf_unknown"])).toBe(2);
    expect(await markRead(handle.db, ids.marie, [a!.id])).toBe(0);
    expect(await countUnread(handle.db, ids.marie)).toBe(14);
    expect(await markUnread(handle.db, ids.marie, a!.id)).toBe(true);
    expect(await countUnread(handle.db, ids.marie)).toBe(15);
    expect(await deleteNotification(handle.db, ids.marie, a!.id)).toBe(true);
    expect(await deleteNotification(handle.db, ids.marie, a!.id)).toBe(false);
    expect(await countUnread(handle.db, ids.marie)).toBe(14);
  });
});

describe("notify: the row, then e-mail and push per the preferences", () => {
  let userId: string;
  let email: string;
  const deps = () => ({
    db: handle.db,
    messenger: new SandboxMessenger(handle.db),
    push: new SandboxPushSender(handle.db),
  });

  beforeEach(async () => {
    const account = await createAccount(handle.db, {
      email: `notify-${Math.random().toString(36).slice(2)}@example.test`,
      passwordHash: "x",
    });
    userId = account.userId;
    email = account.email;
  });

  const cases = [
    ["card_authorization_approved_notification", "cardAuthorizationApproved"],
    ["card_authorization_declined_notification", "cardAuthorizationDeclined"],
    ["expense_request_approved_notification", "expenseRequests"],
    ["allowance_refused_notification", "expenseRequests"],
    ["wallet_reload_notification", "wallets"],
  ] as const;

  for (const [type, preference] of cases)
    for (const channel of ["mail", "push"] as const)
      test(`${type}: ${channel} only when ${preference}.${channel} is on`, async () => {
        const preferences = defaultNotificationPreferences();
        preferences[preference] = { mail: false, push: false };
        preferences[preference][channel] = true;
        await saveNotificationPreferences(handle.db, userId, preferences);
        await notify(deps(), userId, type, "data_1");
        const rows = await handle.db.selectFrom("notifications").selectAll().where("user_id", "=", userId).execute();
        expect(rows).toMatchObject([{ type, data_id: "data_1", read_at: null }]);
        expect(await outbox(email, "email")).toHaveLength(channel === "mail" ? 1 : 0);
        expect(await outbox(userId, "push")).toHaveLength(channel === "push" ? 1 : 0);
      });

  test("the defaults: approved payments neither mailed nor pushed, a card created both", async () => {
    await notify(deps(), userId, "card_authorization_approved_notification", null);
    expect(await outbox(email, "email")).toHaveLength(0);
    expect(await outbox(userId, "push")).toHaveLength(0);
    await notify(deps(), userId, "card_created_to_user_notification", "card_1", {
      mail: { subject: "Sujet", text: "Texte" },
    });
    expect(await outbox(email, "email")).toMatchObject([{ subject: "Sujet" }]);
    expect((await outbox(email, "email"))[0]!.body).toBe("Texte");
    expect(await outbox(userId, "push")).toMatchObject([{ subject: "Nouvelle notification" }]);
    expect((await outbox(userId, "push"))[0]!.body).toContain("/cards/card_1");
    expect(await countUnread(handle.db, userId)).toBe(2);
  });
});

describe("facts: stored with the row, read back as they were", () => {
  test("notify stores its facts; the list reads them back; none stays null", async () => {
    const { userId } = await createAccount(handle.db, { email: "facts@example.test", passwordHash: "x" });
    const now = new Date("2026-11-24T06:00:00Z");
    const facts = { amount: 1420, merchant: "Chez Paul", detail: { asked: 1420, wallets: [] } };
    await notify({ db: handle.db }, userId, "card_authorization_approved_notification", "aut_1", { now, facts });
    await recordNotification(
      handle.db,
      userId,
      "card_created_to_user_notification",
      "card_1",
      new Date(now.getTime() + 1000),
    );
    const page = await listNotifications(handle.db, userId, { unreadOnly: false, page: 1 });
    expect(page?.items.map((n) => [n.type, n.facts])).toEqual([
      ["card_created_to_user_notification", null],
      ["card_authorization_approved_notification", facts],
    ]);
  });

  test("facts that are not a JSON object (bad text, an array, a number) read as null, never an error", async () => {
    expect(parseFacts(null)).toBeNull();
    expect(parseFacts("{not json")).toBeNull();
    expect(parseFacts("[1,2]")).toBeNull();
    expect(parseFacts("42")).toBeNull();
    expect(parseFacts("null")).toBeNull();
    expect(parseFacts('{"amount":5}')).toEqual({ amount: 5 });
    const { userId } = await createAccount(handle.db, { email: "bad-facts@example.test", passwordHash: "x" });
    const id = await recordNotification(handle.db, userId, "wallet_reload_notification", "wal_1");
    await handle.db.updateTable("notifications").set({ facts: "{oops" }).where("id", "=", id).execute();
    const page = await listNotifications(handle.db, userId, { unreadOnly: false, page: 1 });
    expect(page?.items).toMatchObject([{ id, type: "wallet_reload_notification", facts: null }]);
  });
});

describe("facts of their own: a payment's card, a deleted request, another person's ids", () => {
  test("a card payment links to it in its card's transactions; another person's authorisation id links nowhere", async () => {
    const owner = await createAccount(handle.db, {
      email: "payer@example.test",
      passwordHash: "x",
      cards: [
        { type: "physical", lastFour: "4242", payments: [{ kind: "declined", merchant: "Carrefour", amount: 42_000 }] },
      ],
    });
    const cardId = owner.cards["4242"]!;
    const { id: paymentId } = await handle.db
      .selectFrom("card_authorizations")
      .select("id")
      .where("card_id", "=", cardId)
      .executeTakeFirstOrThrow();
    const stranger = await createAccount(handle.db, { email: "stranger@example.test", passwordHash: "x" });
    const facts = { amount: 42_000, merchant: "Carrefour", code: "insufficient_funds", detail: null };
    for (const account of [owner, stranger])
      await recordNotification(
        handle.db,
        account.userId,
        "card_authorization_declined_notification",
        paymentId,
        new Date(),
        facts,
      );
    const [mine] = (await listNotifications(handle.db, owner.userId, { unreadOnly: false, page: 1 }))!.items;
    expect(mine).toMatchObject({ path: `/cards/${cardId}?tab=declined#tx-${paymentId}`, facts });
    const [theirs] = (await listNotifications(handle.db, stranger.userId, { unreadOnly: false, page: 1 }))!.items;
    expect(theirs).toMatchObject({ path: null, facts });
    expect(notificationPath("card_authorization_approved_notification", "auth_1", "card_1")).toBe(
      "/cards/card_1#tx-auth_1",
    );
  });

  test("a refund's notification keeps saying its facts once the request is deleted; another person's request gives none", async () => {
    const account = await createAccount(handle.db, { email: "deleted-request@example.test", passwordHash: "x" });
    const { id: typeId } = await handle.db
      .selectFrom("expense_types")
      .select("id")
      .where("technical_name", "=", "culture")
      .executeTakeFirstOrThrow();
    const request = await createRefund(handle.db, {
      user_id: account.userId,
      type_id: typeId,
      amount: 35_000,
      amount_to_refund: 30_000,
      status: "refused",
      refusal_reason: "Ticket illisible",
    });
    const now = new Date("2026-11-24T06:00:00Z");
    await recordRequestEvent(handle.db, account.userId, "refused", request.id, now);
    // Another person's request id: the row is written (the event is theirs to record) but says no facts of it.
    await recordRequestEvent(handle.db, ids.claire, "refused", request.id, now);
    expect(await requestFacts(handle.db, ids.claire, request.id)).toBeUndefined();
    await handle.db.deleteFrom("expense_requests").where("id", "=", request.id).execute();
    const [item] = (await listNotifications(handle.db, account.userId, { unreadOnly: false, page: 1 }))!.items;
    const subject = readNotificationFacts(item!.type, item!.facts);
    expect(subject && notificationSentence(frenchWords, subject)).toBe(
      "Demande de remboursement de 350,00\u00a0€ (Culture) refusée : « Ticket illisible »",
    );
    const claire = await listNotifications(handle.db, ids.claire, { unreadOnly: false, page: 1 });
    expect(claire!.items.find((n) => n.type === "expense_request_refused_notification")?.facts).toBeNull();
  });
});

describe("the daily expiry job", () => {
  test("one notification per wallet whose balance ends within 30 days; running again adds none", async () => {
    const now = new Date("2026-11-24T06:00:00Z");
    const account = await createAccount(
      handle.db,
      {
        email: "expiry@example.test",
        passwordHash: "x",
        wallets: [
          { name: "Soon", type: "gift" },
          { name: "Later", type: "meal" },
          { name: "Empty", type: "culture" },
        ],
      },
      now,
    );
    await handle.db
      .insertInto("wallet_balances")
      .values([
        buildWalletBalance({
          wallet_id: account.wallets.Soon!,
          balance: 500,
          deposit_amount: 500,
          start_date: "2026-01-01",
          end_date: "2026-12-20",
        }),
        buildWalletBalance({
          wallet_id: account.wallets.Later!,
          balance: 500,
          deposit_amount: 500,
          start_date: "2026-01-01",
          end_date: "2027-02-01",
        }),
        buildWalletBalance({
          wallet_id: account.wallets.Empty!,
          balance: 0,
          deposit_amount: 500,
          start_date: "2026-01-01",
          end_date: "2026-12-01",
        }),
      ])
      .execute();
    const deps = { db: handle.db, push: new SandboxPushSender(handle.db) };
    const first = await notifyExpiringBalances(deps, now);
    expect(first).toBeGreaterThanOrEqual(1);
    const mine = () =>
      handle.db
        .selectFrom("notifications")
        .select(["type", "data_id", "facts"])
        .where("user_id", "=", account.userId)
        .execute();
    // Its facts: the wallet, what ends within the window and when.
    expect(await mine()).toEqual([
      {
        type: "wallet_expire_in_notification",
        data_id: account.wallets.Soon,
        facts: JSON.stringify({ wallet: "Soon", amount: 500, endDate: "2026-12-20" }),
      },
    ]);
    expect(await notifyExpiringBalances(deps, new Date(now.getTime() + 3600_000))).toBe(0);
    expect(await notifyExpiringBalances(deps, new Date("2026-11-25T06:00:00Z"))).toBe(0);
    expect(await mine()).toHaveLength(1);
    expect(await outbox(account.userId, "push")).toHaveLength(1);
  });
});

describe("the daily expiry job: the window's edges, the preferences, nobody else", () => {
  test("ends from today to today + 30 (Paris days) are told once; expired, later or empty balances and other people are not", async () => {
    // 23:30 UTC on 30 November is already 1 December in Paris: the window is 1–31 December.
    const now = new Date("2026-11-30T23:30:00Z");
    const wallets = ["Today", "Last", "Edge", "After", "Gone", "Spent"].map((name) => ({ name, type: "gift" }));
    const told = await createAccount(
      handle.db,
      { email: `expiry-edges-${Date.now()}@example.test`, passwordHash: "x", wallets },
      now,
    );
    const bystander = await createAccount(
      handle.db,
      {
        email: `expiry-bystander-${Date.now()}@example.test`,
        passwordHash: "x",
        wallets: [{ name: "Later", type: "meal" }],
      },
      now,
    );
    const balance = (walletId: string, endDate: string, amount = 500) =>
      buildWalletBalance({
        wallet_id: walletId,
        balance: amount,
        deposit_amount: 500,
        start_date: "2026-01-01",
        end_date: endDate,
      });
    await handle.db
      .insertInto("wallet_balances")
      .values([
        balance(told.wallets.Today!, "2026-12-01"),
        balance(told.wallets.Last!, "2026-12-31"),
        balance(told.wallets.Edge!, "2027-01-01"),
        balance(told.wallets.After!, "2027-01-05"),
        balance(told.wallets.Gone!, "2026-11-30"),
        balance(told.wallets.Spent!, "2026-12-10", 0),
        balance(bystander.wallets.Later!, "2027-06-30"),
      ])
      .execute();
    // Mail on, push off for this one.
    const preferences = defaultNotificationPreferences();
    preferences.wallets = { mail: true, push: false };
    await saveNotificationPreferences(handle.db, told.userId, preferences);
    const bystanderBefore = await handle.db
      .selectFrom("notifications")
      .select("id")
      .where("user_id", "=", bystander.userId)
      .execute();

    const deps = { db: handle.db, messenger: new SandboxMessenger(handle.db), push: new SandboxPushSender(handle.db) };
    await notifyExpiringBalances(deps, now);
    const rows = await handle.db
      .selectFrom("notifications")
      .select(["type", "data_id", "read_at"])
      .where("user_id", "=", told.userId)
      .execute();
    expect(rows.map((r) => r.data_id).sort()).toEqual([told.wallets.Today, told.wallets.Last].sort());
    expect(rows.every((r) => r.type === "wallet_expire_in_notification" && r.read_at === null)).toBe(true);
    expect(await outbox(told.email, "email")).toHaveLength(2);
    expect(await outbox(told.userId, "push")).toHaveLength(0);
    // Twice the same day: nothing sent twice. The next day the window reaches 1 January: Edge alone is added.
    await notifyExpiringBalances(deps, new Date(now.getTime() + 60_000));
    expect(await outbox(told.email, "email")).toHaveLength(2);
    await notifyExpiringBalances(deps, new Date(now.getTime() + 24 * 3600_000));
    await notifyExpiringBalances(deps, new Date(now.getTime() + 25 * 3600_000));
    expect(await outbox(told.email, "email")).toHaveLength(3);
    expect(
      (
        await handle.db
          .selectFrom("notifications")
          .select("data_id")
          .where("user_id", "=", told.userId)
          .orderBy("created_at", "desc")
          .executeTakeFirst()
      )?.data_id,
    ).toBe(told.wallets.Edge);
    expect(await countUnread(handle.db, told.userId)).toBe(3);
    // The bystander: nothing added, nothing sent.
    expect(
      await handle.db.selectFrom("notifications").select("id").where("user_id", "=", bystander.userId).execute(),
    ).toEqual(bystanderBefore);
    expect(await outbox(bystander.email, "email")).toHaveLength(0);
    expect(await outbox(bystander.userId, "push")).toHaveLength(0);
  });

  test("a wallet told about more than 30 days ago is told again while its balance still ends within 30 days", async () => {
    const first = new Date("2026-03-01T08:00:00Z");
    const account = await createAccount(
      handle.db,
      {
        email: `expiry-again-${Date.now()}@example.test`,
        passwordHash: "x",
        wallets: [{ name: "Long", type: "gift" }],
      },
      first,
    );
    await handle.db
      .insertInto("wallet_balances")
      .values(
        buildWalletBalance({
          wallet_id: account.wallets.Long!,
          balance: 500,
          deposit_amount: 500,
          start_date: "2026-01-01",
          end_date: "2026-03-31",
        }),
      )
      .execute();
    const deps = { db: handle.db };
    const mine = () =>
      handle.db.selectFrom("notifications").select("id").where("user_id", "=", account.userId).execute();
    await notifyExpiringBalances(deps, first);
    expect(await mine()).toHaveLength(1);
    await notifyExpiringBalances(deps, new Date("2026-03-30T08:00:00Z"));
    expect(await mine()).toHaveLength(1);
    await notifyExpiringBalances(deps, new Date("2026-03-31T09:00:00Z"));
    expect(await mine()).toHaveLength(2);
  });
});
