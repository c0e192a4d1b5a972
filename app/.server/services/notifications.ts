import type { DB } from "../db";
import { newId } from "../ids";
import type { Messenger } from "../providers/messaging/port";
import type { PushSender } from "../providers/push/port";
import { getNotificationPreferences, type NotificationType } from "./notification-preferences";
import { todayInParis } from "~/domain/dates";
import { UNREAD_COUNT_MAX } from "~/domain/notification-count";
import { notificationSentence, readNotificationFacts, type NotificationFacts } from "~/domain/notification-facts";
import { frenchWords, frenchWordsOf } from "~/i18n/words.server";

export type { NotificationFacts };

/** The notification centre (spec 000 §2, §4, §7): pages of 15, newest first. */
export const NOTIFICATIONS_PAGE_SIZE = 15;
/**
 * The pages "Voir plus" reaches, at most (300 notifications): each page shows all the pages before it (without JS
 * too), so a page's cost is its number of rows; capped, a typed `page=1000000` reads no more than page 20 does
 * (a 404, as a page past the last). Older notifications than these are no longer listed.
 */
export const NOTIFICATIONS_MAX_PAGE = 20;

export interface NotificationItem {
  id: string;
  type: string;
  /** Where it leads inside the portal, or null when it has no page of its own. */
  path: string | null;
  createdAt: string;
  read: boolean;
  /** The facts stored with it; null for older rows or facts that are not a JSON object. */
  facts: NotificationFacts | null;
}

export interface NotificationPage {
  items: NotificationItem[];
  /** The first notification past these (its id names "Voir plus"'s fragment, RGAA 12.8); null: there is no more. */
  nextId: string | null;
}

/** Refund events after which the request sits in the list's "finished" tab. */
const FINISHED_REQUEST_TYPES = new Set([
  "expense_request_cancelled_notification",
  "expense_request_refused_notification",
  "expense_request_finished_notification",
]);

/** The card payments' types: their data id is the authorisation's, their page the card's transactions. */
const CARD_PAYMENT_TYPES = ["card_authorization_approved_notification", "card_authorization_declined_notification"];

/**
 * The page a notification opens (spec 000 §7): a card for card_created_to_user_notification, the wallet for
 * wallet_expire_in_notification and wallet_reload_notification; for refunds and allowances their list, at
 * the request's own entry (the list's `exr-`/`alw-` anchors; the tab the event leaves it in); for a card payment
 * the payment in its card's transactions (`cardId`: the card of the authorisation, when it is this person's).
 */
export function notificationPath(type: string, dataId: string | null, cardId: string | null = null): string | null {
  if (CARD_PAYMENT_TYPES.includes(type)) {
    if (!cardId) return null;
    const tab = type === "card_authorization_declined_notification" ? "?tab=declined" : "";
    return `/cards/${encodeURIComponent(cardId)}${tab}${dataId ? `#tx-${encodeURIComponent(dataId)}` : ""}`;
  }
  if (type === "card_created_to_user_notification") return dataId ? `/cards/${encodeURIComponent(dataId)}` : "/cards";
  if (type === "wallet_expire_in_notification" || type === "wallet_reload_notification")
    return dataId ? `/wallets/${encodeURIComponent(dataId)}` : "/wallets";
  const anchor = (prefix: string) => (dataId ? `#${prefix}-${encodeURIComponent(dataId)}` : "");
  if (type.startsWith("expense_request_"))
    return `/plans/expense-requests${FINISHED_REQUEST_TYPES.has(type) ? "?tab=finished" : ""}${anchor("exr")}`;
  if (type.startsWith("allowance_")) return `/plans/allowances${anchor("alw")}`;
  return null;
}

/** The preference (settings/notifications) that governs a type's e-mails and pushes; null: always sent. */
export function preferenceOf(type: string): NotificationType | null {
  if (type === "card_authorization_approved_notification") return "cardAuthorizationApproved";
  if (type === "card_authorization_declined_notification") return "cardAuthorizationDeclined";
  if (type.startsWith("expense_request_") || type.startsWith("allowance_")) return "expenseRequests";
  if (type.startsWith("wallet_")) return "wallets";
  return null;
}

/**
 * The first `page` pages at once (the list grows with "Voir plus", so that without JS the page shows all it
 * showed before). Null when `page` is beyond the last one (page 1 always exists, even empty) or beyond
 * NOTIFICATIONS_MAX_PAGE. Read through the (user_id, created_at, id) index, or its partial twin of the unread ones
 * (migration 032): the rows shown and one more, whatever the person's history.
 */
export async function listNotifications(
  db: DB,
  userId: string,
  { unreadOnly, page }: { unreadOnly: boolean; page: number },
): Promise<NotificationPage | null> {
  if (!Number.isSafeInteger(page) || page < 1 || page > NOTIFICATIONS_MAX_PAGE) return null;
  let query = db
    .selectFrom("notifications as n")
    // A card payment's card, for its link: only a card of this person's (a closed card still is).
    .leftJoin("card_authorizations as ca", (join) =>
      join.onRef("ca.id", "=", "n.data_id").on("n.type", "in", CARD_PAYMENT_TYPES),
    )
    .leftJoin("cards as c", (join) => join.onRef("c.id", "=", "ca.card_id").onRef("c.user_id", "=", "n.user_id"))
    .select(["n.id", "n.type", "n.data_id", "n.created_at", "n.read_at", "n.facts", "c.id as card_id"])
    .where("n.user_id", "=", userId);
  if (unreadOnly) query = query.where("n.read_at", "is", null);
  const limit = page * NOTIFICATIONS_PAGE_SIZE;
  const rows = await query
    .orderBy("n.created_at", "desc")
    .orderBy("n.id", "desc")
    .limit(limit + 1)
    .execute();
  if (page > 1 && rows.length <= (page - 1) * NOTIFICATIONS_PAGE_SIZE) return null;
  return {
    items: rows.slice(0, limit).map((row) => ({
      id: row.id,
      type: row.type,
      path: notificationPath(row.type, row.data_id, row.card_id),
      createdAt: row.created_at,
      read: row.read_at !== null,
      facts: parseFacts(row.facts),
    })),
    // The last page "Voir plus" reaches offers no more.
    nextId: page < NOTIFICATIONS_MAX_PAGE ? (rows[limit]?.id ?? null) : null,
  };
}

/** The stored facts, or null when there are none or they are not a JSON object (never an error: old or bad rows). */
export function parseFacts(stored: string | null): NotificationFacts | null {
  if (stored === null) return null;
  try {
    const facts: unknown = JSON.parse(stored);
    return typeof facts === "object" && facts !== null && !Array.isArray(facts) ? (facts as NotificationFacts) : null;
  } catch {
    return null;
  }
}

/**
 * The bell's count: the person's unread notifications up to UNREAD_COUNT_MAX + 1 (the bell then says « 99+ »),
 * counted in the partial index of the unread ones (migration 032): at most 100 index entries, whatever the person
 * left unread.
 */
export async function countUnread(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom(unreadCounted(db, userId).as("unread"))
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** The unread notifications the bell counts, at most UNREAD_COUNT_MAX + 1 of them (countUnread, the shell's query). */
export function unreadCounted(db: DB, userId: string) {
  return db
    .selectFrom("notifications")
    .select("id")
    .where("user_id", "=", userId)
    .where("read_at", "is", null)
    .limit(UNREAD_COUNT_MAX + 1);
}

/**
 * Marks read those of `ids` that are this person's and still unread (the others are left as they are); answers
 * how many it marked, or null when none of the ids is this person's (unknown or another's: the route's 404).
 */
export async function markRead(
  db: DB,
  userId: string,
  ids: readonly string[],
  now = new Date(),
): Promise<number | null> {
  if (ids.length === 0) return 0;
  const some = ids.slice(0, NOTIFICATIONS_PAGE_SIZE * 20);
  const result = await db
    .updateTable("notifications")
    .set({ read_at: now.toISOString() })
    .where("user_id", "=", userId)
    .where("id", "in", some)
    .where("read_at", "is", null)
    .executeTakeFirst();
  const marked = Number(result.numUpdatedRows);
  if (marked > 0) return marked;
  const owned = await db
    .selectFrom("notifications")
    .select("id")
    .where("user_id", "=", userId)
    .where("id", "in", some)
    .executeTakeFirst();
  return owned ? 0 : null;
}

/** False when the notification is not this person's (or does not exist): nothing changed. */
export async function markUnread(db: DB, userId: string, id: string): Promise<boolean> {
  const result = await db
    .updateTable("notifications")
    .set({ read_at: null })
    .where("user_id", "=", userId)
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** False when the notification is not this person's (or does not exist): nothing deleted. */
export async function deleteNotification(db: DB, userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom("notifications")
    .where("user_id", "=", userId)
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** How notifications leave the portal: the e-mail and the push senders (either may be absent: not sent). */
export interface Notifier {
  messenger?: Messenger;
  push?: PushSender;
}

export interface NotifyDeps extends Notifier {
  db: DB;
}

/** The e-mail of an event when its producer writes one of its own (a refund decision's facts, its own footer). */
export interface NotificationMail {
  subject: string;
  /** The whole body, sent as it is. */
  text: string;
}

/**
 * Produces a notification: the row the centre shows, then the e-mail and the push its preference
 * (/settings/notifications) allows (see `deliverNotification`).
 */
export async function notify(
  deps: NotifyDeps,
  userId: string,
  type: string,
  dataId: string | null,
  { mail, now = new Date(), facts }: { mail?: NotificationMail; now?: Date; facts?: NotificationFacts } = {},
): Promise<string> {
  const id = await recordNotification(deps.db, userId, type, dataId, now, facts);
  await deliverNotification(deps, userId, type, dataId, { mail, facts });
  return id;
}

/**
 * The row alone, for a producer that writes it in the transaction of its event (then delivers after commit), with
 * the event's facts (stored as JSON) when it has some.
 */
export async function recordNotification(
  db: DB,
  userId: string,
  type: string,
  dataId: string | null,
  now = new Date(),
  facts?: NotificationFacts,
): Promise<string> {
  const id = newId("ntf");
  await db
    .insertInto("notifications")
    .values({
      id,
      user_id: userId,
      type,
      data_id: dataId,
      created_at: now.toISOString(),
      read_at: null,
      facts: facts ? JSON.stringify(facts) : null,
    })
    .execute();
  return id;
}

/**
 * The e-mail (when a messenger is given) and the push (when a push sender is given) of a notification, each only
 * when the type's preference allows it; types without a preference (a card created) are always sent. Call it after
 * the transaction that made the event: a failed e-mail must not undo a decision. Without `mail`, the event's own
 * `sentence`, else the sentence of its `facts` (what the centre says, in French), else the type's sentence from the
 * catalogue is sent with the generic footer; the push says the same.
 */
export async function deliverNotification(
  deps: NotifyDeps,
  userId: string,
  type: string,
  dataId: string | null,
  { mail, sentence, facts }: { mail?: NotificationMail; sentence?: string; facts?: NotificationFacts } = {},
): Promise<void> {
  if (!deps.messenger && !deps.push) return;
  const preference = preferenceOf(type);
  const preferences = preference ? (await getNotificationPreferences(deps.db, userId))[preference] : null;
  const text = sentence ?? notificationText(type, facts);
  if (deps.messenger && (preferences?.mail ?? true)) {
    const user = await deps.db.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst();
    if (user)
      await deps.messenger.send({
        channel: "email",
        to: user.email,
        subject: mail?.subject ?? text,
        text: mail?.text ?? `${text}\n\n${frenchWords("notificationCentre.mailFooter")}`,
      });
  }
  if (deps.push && (preferences?.push ?? true))
    await deps.push.send({
      userId,
      title: frenchWords("notificationCentre.pushTitle"),
      body: text,
      path: notificationPath(type, dataId, await cardOfPayment(deps.db, userId, type, dataId)),
    });
}

/** The card of a card payment's notification (its authorisation's), when it is this person's; else null. */
async function cardOfPayment(db: DB, userId: string, type: string, dataId: string | null): Promise<string | null> {
  if (!dataId || !CARD_PAYMENT_TYPES.includes(type)) return null;
  const row = await db
    .selectFrom("card_authorizations as ca")
    .innerJoin("cards as c", "c.id", "ca.card_id")
    .select("c.id")
    .where("ca.id", "=", dataId)
    .where("c.user_id", "=", userId)
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * A notification's sentence in French (spec 000 §1: e-mails and pushes are French): its facts' when they fit its
 * type, else the type's; the generic one for an unknown type.
 */
function notificationText(type: string, facts: NotificationFacts | undefined): string {
  const subject = readNotificationFacts(type, facts ?? null);
  if (subject) return notificationSentence(frenchWords, subject);
  return frenchWordsOf("notificationCentre.types", type, "notificationCentre.types.other");
}

/** A card created's facts (issue 30 §4): its kind and last four digits, as the centre names it. */
export function cardCreatedFacts(cardType: string, lastFour: string): NotificationFacts {
  return { cardType: cardType === "physical" ? "physical" : "virtual", lastFour };
}

const EXPIRY_WINDOW_DAYS = 30;

/**
 * The daily job (spec 000 §7): a wallet_expire_in_notification for each wallet with a balance left that
 * ends within 30 days. Idempotent: a wallet already told about within the last 30 days is not told again,
 * so running it twice a day, or on consecutive days, sends one notification per expiry window. Its facts: the
 * wallet's name, the amount that ends within the window and the first day it ends.
 */
export async function notifyExpiringBalances(deps: NotifyDeps, now = new Date()): Promise<number> {
  const today = todayInParis(now);
  const limit = addDays(today, EXPIRY_WINDOW_DAYS);
  const since = new Date(now.getTime() - EXPIRY_WINDOW_DAYS * 24 * 3600 * 1000).toISOString();
  const wallets = await deps.db
    .selectFrom("wallet_balances as b")
    .innerJoin("wallets as w", "w.id", "b.wallet_id")
    .select((eb) => [
      "w.id",
      "w.user_id",
      "w.name",
      eb.fn.sum<number | string>("b.balance").as("amount"),
      eb.fn.min("b.end_date").as("end_date"),
    ])
    .where("b.balance", ">", 0)
    .where("b.end_date", ">=", today)
    .where("b.end_date", "<=", limit)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("notifications as n")
            .select("n.id")
            .whereRef("n.data_id", "=", "w.id")
            .whereRef("n.user_id", "=", "w.user_id")
            .where("n.type", "=", "wallet_expire_in_notification")
            .where("n.created_at", ">=", since),
        ),
      ),
    )
    .groupBy(["w.id", "w.user_id", "w.name"])
    .execute();
  for (const wallet of wallets)
    await notify(deps, wallet.user_id, "wallet_expire_in_notification", wallet.id, {
      now,
      // PostgreSQL's sum of integers is a bigint, which its driver reads as a string.
      facts: { wallet: wallet.name, amount: Number(wallet.amount), endDate: wallet.end_date },
    });
  return wallets.length;
}

/** 2026-11-24 + 30 → 2026-12-24 (calendar days, no time zone involved). */
function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
