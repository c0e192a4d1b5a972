import type { DB } from "../db";
import { hasCardInTheMaking } from "./card-creation";
import { countUnread, unreadCounted } from "./notifications";
import { CONTACT_FIELDS, pendingFields, type ContactField } from "./profile";
import { prepared, type Argument } from "../db/prepared";

/** What the signed-in shell shows of the person besides their cards and wallets (routes/shell/layout.tsx). */
export type ShellState = {
  /** A card asked for that the issuer has not finished (card-creation.ts `hasCardInTheMaking`). */
  cardInTheMaking: boolean;
  /** The contact fields with a change waiting for its code, e-mail first (profile.ts `pendingFields`). */
  pendingFields: ContactField[];
  /** The unread notifications, counted up to UNREAD_COUNT_MAX + 1; null when they could not be counted. */
  unread: number | null;
};

const shellRow = prepared((db, arg: Argument<{ userId: string }>) =>
  db
    // From the person's own row (its primary key): a plan that reads no table whole, on SQLite too.
    .selectFrom("users")
    .where("users.id", "=", arg("userId"))
    .select((eb) => [
      eb
        .exists(
          eb
            .selectFrom("card_requests")
            .select("id")
            .where("user_id", "=", arg("userId"))
            .where("status", "=", "submitted"),
        )
        .as("making"),
      ...CONTACT_FIELDS.map((field) =>
        eb
          .exists(
            eb
              .selectFrom("pending_changes")
              .select("id")
              .where("user_id", "=", arg("userId"))
              .where("field_name", "=", field),
          )
          .as(`pending_${field}`),
      ),
      eb
        .selectFrom(unreadCounted(db, arg("userId")).as("unread"))
        .select((inner) => inner.fn.countAll<number | string>().as("count"))
        .as("unread"),
    ]),
);

/**
 * The shell's three small answers in one query rather than three (decision 0076): each is the same
 * subquery as its service's own (same indexes, same bound on the count). Should it fail, each is asked
 * on its own, so that a failure is the one its service has (a count that cannot be read leaves the page
 * standing with an unknown count, spec 000 §8: `countFailed` says it).
 */
export async function shellState(
  db: DB,
  userId: string,
  countFailed: (error: unknown) => Promise<null>,
): Promise<ShellState> {
  try {
    const row = await shellRow.first(db, { userId });
    if (!row) throw new Error("no such user");
    const fields = row as unknown as Record<string, unknown>;
    return {
      // EXISTS answers 1/0 on SQLite, true/false on PostgreSQL.
      cardInTheMaking: Boolean(row.making),
      pendingFields: CONTACT_FIELDS.filter((field) => Boolean(fields[`pending_${field}`])),
      unread: Number(row.unread ?? 0),
    };
  } catch {
    return separately(db, userId, countFailed);
  }
}

async function separately(db: DB, userId: string, countFailed: (error: unknown) => Promise<null>): Promise<ShellState> {
  const [cardInTheMaking, pending, unread] = await Promise.all([
    hasCardInTheMaking(db, userId),
    pendingFields(db, userId),
    countUnread(db, userId).catch(countFailed),
  ]);
  return { cardInTheMaking, pendingFields: pending, unread };
}
