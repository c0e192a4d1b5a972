import type { DatabaseHandle, DB } from "../index";
import type { BulkWriter } from "./bulk";

const DAY = 86_400_000;
const PAGE = 5_000;

/**
 * Every other row of card and wallet history copied `factor - 1` more times further back: the card payments of
 * every card but `cardId` (with what depends on them: payment intents, merchant refunds, payment-method switches),
 * the wallet movements not of that card's payments, the notifications not about them. Copy k lies k periods
 * before its row, a period being the whole history's span rounded up to whole weeks (a meal stays on a working
 * day), so every copy is older than every original. A copy keeps its row's figures; what is still pending today
 * is over by then: a held payment is one the expiry job released (`reversed`, `expired`, its holds `released`,
 * its overflow's charge `canceled`), a notification is read. Ids are the row's with `_h<k>`; what the sandbox
 * processor and Stripe know (processor references, Stripe ids) is not copied.
 */
export async function copyHistory(
  handle: DatabaseHandle,
  writer: BulkWriter,
  options: { cardId: string; factor: number; now: Date },
): Promise<void> {
  if (options.factor <= 1) return;
  const { db } = handle;
  const since = await oldestOfOthers(db, options.cardId);
  if (since === null) return;
  const period = Math.ceil((options.now.getTime() - Date.parse(since) + DAY) / (7 * DAY)) * 7 * DAY;
  const copies = Array.from({ length: options.factor - 1 }, (_, i) => i + 1);
  const shift = (iso: string, k: number) => new Date(Date.parse(iso) - k * period).toISOString();
  const copy = { db, writer, cardId: options.cardId, since, copies, shift };
  await copyAuthorisations(copy);
  await copyMovements(copy);
  await copyNotifications(copy);
  await copyDependants(copy);
}

interface Copy {
  db: DB;
  writer: BulkWriter;
  cardId: string;
  /** The oldest original's instant: anything older is a copy (or a later run's) and is not read again. */
  since: string;
  copies: number[];
  shift: (iso: string, k: number) => string;
}

const copyId = (id: string, k: number) => `${id}_h${k}`;

async function oldestOfOthers(db: DB, cardId: string): Promise<string | null> {
  const [payment, movement, notification] = await Promise.all([
    db
      .selectFrom("card_authorizations")
      .select((eb) => eb.fn.min("transaction_at").as("at"))
      .where("card_id", "!=", cardId)
      .executeTakeFirst(),
    otherMovements(db, cardId)
      .select((eb) => eb.fn.min("wt.created_at").as("at"))
      .executeTakeFirst(),
    otherNotifications(db, cardId)
      .select((eb) => eb.fn.min("n.created_at").as("at"))
      .executeTakeFirst(),
  ]);
  const instants = [payment?.at, movement?.at, notification?.at].filter((at): at is string => typeof at === "string");
  return instants.length === 0 ? null : instants.reduce((a, b) => (a < b ? a : b));
}

function otherMovements(db: DB, cardId: string) {
  return db
    .selectFrom("wallet_transactions as wt")
    .leftJoin("card_authorizations as ca", "ca.id", "wt.authorization_id")
    .where((eb) => eb.or([eb("wt.authorization_id", "is", null), eb("ca.card_id", "!=", cardId)]));
}

function otherNotifications(db: DB, cardId: string) {
  return db
    .selectFrom("notifications as n")
    .leftJoin("card_authorizations as ca", "ca.id", "n.data_id")
    .where((eb) => eb.or([eb("ca.id", "is", null), eb("ca.card_id", "!=", cardId)]));
}

/** Reads a table's originals a page at a time, in id order, and hands each page over. */
async function paged<T extends { id: string }>(
  read: (after: string) => Promise<T[]>,
  each: (rows: T[]) => Promise<void>,
): Promise<void> {
  for (let after = ""; ;) {
    const rows = await read(after);
    if (rows.length === 0) return;
    await each(rows);
    after = rows[rows.length - 1]!.id;
  }
}

async function copyAuthorisations(copy: Copy): Promise<void> {
  const { db, writer, cardId, since } = copy;
  await paged(
    (after) =>
      db
        .selectFrom("card_authorizations")
        .selectAll()
        .where("card_id", "!=", cardId)
        .where("transaction_at", ">=", since)
        .where("id", ">", after)
        .orderBy("id")
        .limit(PAGE)
        .execute(),
    async (rows) => {
      for (const k of copy.copies) {
        for (const row of rows) {
          const held = row.frozen === 1;
          writer.add("card_authorizations", {
            ...row,
            id: copyId(row.id, k),
            transaction_at: copy.shift(row.transaction_at, k),
            status_name: held ? "reversed" : row.status_name,
            status_reason: held ? "expired" : row.status_reason,
            frozen: 0,
            stripe_authorization_id: null,
            decline_detail: row.decline_detail ?? null,
          });
        }
      }
      await writer.maybeFlush();
    },
  );
}

async function copyMovements(copy: Copy): Promise<void> {
  const { db, writer, cardId, since } = copy;
  await paged(
    (after) =>
      otherMovements(db, cardId)
        .selectAll("wt")
        .where("wt.created_at", ">=", since)
        .where("wt.id", ">", after)
        .orderBy("wt.id")
        .limit(PAGE)
        .execute(),
    async (rows) => {
      for (const k of copy.copies) {
        for (const row of rows) {
          writer.add("wallet_transactions", {
            ...row,
            id: copyId(row.id, k),
            status: row.status === "frozen" ? "released" : row.status,
            created_at: copy.shift(row.created_at, k),
            authorization_id: row.authorization_id === null ? null : copyId(row.authorization_id, k),
          });
        }
      }
      await writer.maybeFlush();
    },
  );
}

async function copyNotifications(copy: Copy): Promise<void> {
  const { db, writer, cardId, since } = copy;
  await paged(
    (after) =>
      otherNotifications(db, cardId)
        .selectAll("n")
        .select("ca.id as paymentId")
        .where("n.created_at", ">=", since)
        .where("n.id", ">", after)
        .orderBy("n.id")
        .limit(PAGE)
        .execute(),
    async (rows) => {
      for (const k of copy.copies) {
        for (const { paymentId, ...row } of rows) {
          writer.add("notifications", {
            ...row,
            id: copyId(row.id, k),
            data_id: paymentId === null ? row.data_id : copyId(paymentId, k),
            created_at: copy.shift(row.created_at, k),
            read_at: copy.shift(row.read_at ?? new Date(Date.parse(row.created_at) + 2 * 3_600_000).toISOString(), k),
          });
        }
      }
      await writer.maybeFlush();
    },
  );
}

/** The payment intents, merchant refunds and payment-method switches of the copied payments. */
async function copyDependants(copy: Copy): Promise<void> {
  const { db, writer, cardId, since } = copy;
  await paged(
    (after) =>
      db
        .selectFrom("payment_intents")
        .innerJoin("card_authorizations as ca", "ca.id", "payment_intents.authorization_id")
        .where("ca.card_id", "!=", cardId)
        .where("ca.transaction_at", ">=", since)
        .selectAll("payment_intents")
        .select("ca.frozen as held")
        .where("payment_intents.id", ">", after)
        .orderBy("payment_intents.id")
        .limit(PAGE)
        .execute(),
    async (rows) => {
      for (const k of copy.copies) {
        for (const { held, ...row } of rows) {
          writer.add("payment_intents", {
            ...row,
            id: copyId(row.id, k),
            authorization_id: copyId(row.authorization_id, k),
            latest_status: held === 1 && row.latest_status === "processing" ? "canceled" : row.latest_status,
            created_at: copy.shift(row.created_at, k),
            processor_ref: null,
          });
        }
      }
      await writer.maybeFlush();
    },
  );
  for (const table of ["card_authorization_refunds", "payment_method_switches"] as const) {
    await paged(
      (after) =>
        db
          .selectFrom(table as "card_authorization_refunds")
          .innerJoin("card_authorizations as ca", "ca.id", "authorization_id")
          .selectAll(table as "card_authorization_refunds")
          .where("ca.card_id", "!=", cardId)
          .where("ca.transaction_at", ">=", since)
          .where(`${table}.id` as "card_authorization_refunds.id", ">", after)
          .orderBy(`${table}.id` as "card_authorization_refunds.id")
          .limit(PAGE)
          .execute(),
      async (rows) => {
        for (const k of copy.copies) {
          for (const row of rows as Record<string, string | number | null>[]) {
            const copied: Record<string, string | number | null> = {
              ...row,
              id: copyId(String(row.id), k),
              authorization_id: copyId(String(row.authorization_id), k),
              created_at: copy.shift(String(row.created_at), k),
            };
            if (table === "card_authorization_refunds") copied.reference = copyId(String(row.reference), k);
            writer.add(table, copied as never);
          }
        }
        await writer.maybeFlush();
      },
    );
  }
}
