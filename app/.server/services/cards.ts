import { sql } from "kysely";
import type { DB } from "../db";
import { sumReserved, type ReservedParts, type WalletSummary } from "~/domain/wallets";
import { linkedWalletSummaries } from "./wallets";
import { prepared, type Argument } from "../db/prepared";

export interface CardListItem {
  id: string;
  type: "physical" | "virtual";
  lastFour: string;
  blocked: boolean;
}

export interface CardDetail extends CardListItem {
  brand: string;
  status: "active" | "blocked";
  frozen: boolean;
  groupName: string;
  shipping: { status: string; eta: string | null } | null;
  pinCanUpdate: boolean;
  linkedWallets: WalletSummary[];
  /**
   * Cents, over the linked wallets that have an amount (an unlimited one is not counted, `hasUnlimited` says so):
   * what they can pay now, what they hold back (the wallet pages' "Réservé", refund requests included), and both —
   * available + reserved = total. `reservedParts` is what `reserved` is made of.
   */
  balances: {
    available: number;
    reserved: number;
    total: number;
    reservedParts: ReservedParts;
    hasUnlimited: boolean;
  };
}

const asType = (t: string): CardListItem["type"] => (t === "virtual" ? "virtual" : "physical");

/**
 * The user's cards in the order of the navigation and of "next card": usable cards oldest first,
 * then blocked ones (still listed, so their history stays reachable).
 */
const cardsOf = prepared((db, arg: Argument<{ userId: string }>) =>
  db
    .selectFrom("cards")
    .select(["id", "type", "last_four", "status"])
    .where("user_id", "=", arg("userId"))
    .orderBy("created_at")
    .orderBy("id"),
);

export async function listCards(db: DB, userId: string): Promise<CardListItem[]> {
  const rows = await cardsOf.all(db, { userId });
  const items = rows.map((r) => ({
    id: r.id,
    type: asType(r.type),
    lastFour: r.last_four,
    blocked: r.status === "blocked",
  }));
  return [...items.filter((c) => !c.blocked), ...items.filter((c) => c.blocked)];
}

/** Card licences the user can still use, by type (spec 000 §2: the add-card area shows when any remain). */
export interface CardLicences {
  physical: number;
  virtual: number;
}

type LicenceType = "physical_card" | "virtual_card";

/** How many licences of this type the person has not used yet: a subquery through the (user_id, license_type) index. */
function unusedLicences(userId: string, type: LicenceType) {
  return sql<
    number | string
  >`(select count(*) from licences where licences.user_id = ${userId} and licences.license_type = ${type} and licences.used_at is null)`;
}

/**
 * The card's row, its funder's name and, when asked, the person's unused card licences counted beside it (one query:
 * the licences through their (user_id, license_type) index). Scoped to the user: someone else's card is no row.
 */
function cardRowQuery(licences: boolean) {
  return prepared((db, arg: Argument<{ userId: string; cardId: string }>) => {
    const unused = (type: LicenceType) => unusedLicences(arg("userId"), type);
    return db
      .selectFrom("cards as c")
      .innerJoin("groups as g", "g.id", "c.group_id")
      .select([
        "c.id",
        "c.type",
        "c.last_four",
        "c.status",
        "c.brand",
        "c.frozen",
        "c.shipping_status",
        "c.shipping_eta",
        "c.pin_can_update",
        "g.name as group_name",
      ])
      .$if(licences, (query) =>
        query.select([unused("physical_card").as("physical_licences"), unused("virtual_card").as("virtual_licences")]),
      )
      .where("c.id", "=", arg("cardId"))
      .where("c.user_id", "=", arg("userId"));
  });
}

const cardRows = { withLicences: cardRowQuery(true), alone: cardRowQuery(false) };

function cardRow(db: DB, userId: string, cardId: string, licences: boolean) {
  return cardRows[licences ? "withLicences" : "alone"].first(db, { userId, cardId });
}

/** One card of this user, or null for an unknown id or someone else's card. */
export async function getCardDetail(db: DB, userId: string, cardId: string): Promise<CardDetail | null> {
  return (await readCardDetail(db, userId, cardId, false))?.card ?? null;
}

/**
 * The card page's reads (issue 35): the card with its linked wallets, and the person's unused card licences counted in
 * the card's own query. Null for an unknown id or someone else's card.
 */
export async function getCardPage(
  db: DB,
  userId: string,
  cardId: string,
): Promise<{ card: CardDetail; licences: CardLicences } | null> {
  return readCardDetail(db, userId, cardId, true);
}

async function readCardDetail(db: DB, userId: string, cardId: string, withLicences: boolean) {
  // The card and its wallets at once: the wallets' query is scoped to the user too (none for someone else's card).
  const [card, wallets] = await Promise.all([
    cardRow(db, userId, cardId, withLicences),
    linkedWalletSummaries(db, userId, cardId),
  ]);
  if (!card) return null;
  const licences = card as { physical_licences?: number | string; virtual_licences?: number | string };
  return {
    card: cardDetailOf(card, wallets),
    // PostgreSQL's count is a bigint, which its driver reads as a string.
    licences: { physical: Number(licences.physical_licences ?? 0), virtual: Number(licences.virtual_licences ?? 0) },
  };
}

type CardRow = NonNullable<Awaited<ReturnType<typeof cardRow>>>;

function cardDetailOf(card: CardRow, linkedWallets: WalletSummary[]): CardDetail {
  // The card's figures are its wallets' figures summed, so that they agree with the wallet pages: what a wallet
  // holds back (its pending card payments, this card's or another's, and its refund holds) is one reading.
  const counted = linkedWallets.filter((w) => w.available !== null);
  const reserved = sumReserved(counted);
  const available = counted.reduce((sum, w) => sum + (w.available ?? 0), 0);

  return {
    id: card.id,
    type: asType(card.type),
    lastFour: card.last_four,
    blocked: card.status === "blocked",
    brand: card.brand,
    status: card.status === "blocked" ? "blocked" : "active",
    frozen: card.frozen === 1,
    groupName: card.group_name,
    shipping: card.shipping_status ? { status: card.shipping_status, eta: card.shipping_eta } : null,
    pinCanUpdate: card.pin_can_update === 1,
    linkedWallets,
    balances: {
      available,
      reserved: reserved.reserved,
      total: available + reserved.reserved,
      reservedParts: { frozen: reserved.frozen, refundHolds: reserved.refundHolds },
      hasUnlimited: counted.length < linkedWallets.length,
    },
  };
}

export interface ShippingAddressView {
  line1: string;
  line2: string | null;
  zipcode: string;
  city: string;
  country: string;
}

export async function getShippingAddress(db: DB, userId: string, cardId: string): Promise<ShippingAddressView | null> {
  const row = await db
    .selectFrom("cards")
    .select(["shipping_line1", "shipping_line2", "shipping_zipcode", "shipping_city", "shipping_country"])
    .where("id", "=", cardId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row?.shipping_line1 || !row.shipping_zipcode || !row.shipping_city || !row.shipping_country) return null;
  return {
    line1: row.shipping_line1,
    line2: row.shipping_line2,
    zipcode: row.shipping_zipcode,
    city: row.shipping_city,
    country: row.shipping_country,
  };
}

/** Card licences the user can still use, by type (spec 000 §2: the add-card area shows when any remain). */
export async function availableCardLicences(db: DB, userId: string): Promise<CardLicences> {
  const row = await db
    .selectFrom("users")
    .where("users.id", "=", userId)
    .select([
      unusedLicences(userId, "physical_card").as("physical"),
      unusedLicences(userId, "virtual_card").as("virtual"),
    ])
    .executeTakeFirst();
  // PostgreSQL's count is a bigint, which its driver reads as a string.
  return { physical: Number(row?.physical ?? 0), virtual: Number(row?.virtual ?? 0) };
}
