import type { DB } from "../db";
import { sumReserved, type ReservedParts, type WalletSummary } from "~/domain/wallets";
import { linkedWalletSummaries } from "./wallets";

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
export async function listCards(db: DB, userId: string): Promise<CardListItem[]> {
  const rows = await db
    .selectFrom("cards")
    .select(["id", "type", "last_four", "status"])
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const items = rows.map((r) => ({
    id: r.id,
    type: asType(r.type),
    lastFour: r.last_four,
    blocked: r.status === "blocked",
  }));
  return [...items.filter((c) => !c.blocked), ...items.filter((c) => c.blocked)];
}

/** One card of this user, or null for an unknown id or someone else's card. */
export async function getCardDetail(db: DB, userId: string, cardId: string): Promise<CardDetail | null> {
  const card = await db
    .selectFrom("cards")
    .innerJoin("groups", "groups.id", "cards.group_id")
    .selectAll("cards")
    .select("groups.name as group_name")
    .where("cards.id", "=", cardId)
    .where("cards.user_id", "=", userId)
    .executeTakeFirst();
  if (!card) return null;

  const linkedWallets = await linkedWalletSummaries(db, userId, card.id);

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
export async function availableCardLicences(db: DB, userId: string): Promise<{ physical: number; virtual: number }> {
  const rows = await db
    .selectFrom("licences")
    .select(["license_type"])
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .where("license_type", "in", ["physical_card", "virtual_card"])
    .execute();
  return {
    physical: rows.filter((r) => r.license_type === "physical_card").length,
    virtual: rows.filter((r) => r.license_type === "virtual_card").length,
  };
}
