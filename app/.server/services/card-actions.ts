import type { DB } from "../db";
import { encryptPin } from "../providers/issuer/pin";
import {
  IssuerError,
  type CancelReason,
  type CardIssuer,
  type RevealKind,
  type RevealSession,
} from "../providers/issuer/port";

/**
 * What an employee can do to a card (spec 000 §4): freeze and unfreeze (reversible), block (permanent),
 * choose a new PIN, reveal details or PIN. The portal's state changes only after the issuer confirms.
 */
export type CardActionResult =
  | { kind: "ok" }
  | { kind: "notFound" }
  | { kind: "blocked" }
  | { kind: "already" }
  | { kind: "notAllowed" }
  | { kind: "issuerFailed" };

const OK = { kind: "ok" } as const;
const NOT_FOUND = { kind: "notFound" } as const;
const BLOCKED = { kind: "blocked" } as const;
const ISSUER_FAILED = { kind: "issuerFailed" } as const;

interface OwnedCard {
  id: string;
  issuer_ref: string;
  status: string;
  frozen: number;
  type: string;
  pin_can_update: number;
}

async function ownedCard(db: DB, userId: string, cardId: string): Promise<OwnedCard | undefined> {
  return db
    .selectFrom("cards")
    .select(["id", "issuer_ref", "status", "frozen", "type", "pin_can_update"])
    .where("id", "=", cardId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

async function callIssuer(call: () => Promise<void>): Promise<typeof OK | typeof ISSUER_FAILED> {
  try {
    await call();
    return OK;
  } catch (err) {
    if (err instanceof IssuerError) return ISSUER_FAILED;
    throw err;
  }
}

export async function setCardFrozen(
  db: DB,
  issuer: CardIssuer,
  userId: string,
  cardId: string,
  frozen: boolean,
): Promise<CardActionResult> {
  const card = await ownedCard(db, userId, cardId);
  if (!card) return NOT_FOUND;
  if (card.status === "blocked") return BLOCKED;
  if ((card.frozen === 1) === frozen) return { kind: "already" };
  const result = await callIssuer(() => (frozen ? issuer.freeze(card.issuer_ref) : issuer.unfreeze(card.issuer_ref)));
  if (result.kind !== "ok") return result;
  await db
    .updateTable("cards")
    .set({ frozen: frozen ? 1 : 0 })
    .where("id", "=", card.id)
    .execute();
  return OK;
}

export async function blockCard(
  db: DB,
  issuer: CardIssuer,
  userId: string,
  cardId: string,
  reason: CancelReason,
): Promise<CardActionResult> {
  const card = await ownedCard(db, userId, cardId);
  if (!card) return NOT_FOUND;
  if (card.status === "blocked") return BLOCKED;
  const result = await callIssuer(async () => {
    try {
      await issuer.cancel(card.issuer_ref, reason);
    } catch (err) {
      // Already canceled at the issuer (an earlier cancel whose answer never came back): record it here too.
      if (!(err instanceof IssuerError && err.code === "card_canceled")) throw err;
    }
  });
  if (result.kind !== "ok") return result;
  await db
    .updateTable("cards")
    .set({ status: "blocked", block_reason: reason, frozen: 0 })
    .where("id", "=", card.id)
    .execute();
  return OK;
}

/** Spec 000 §4: a PIN locked after 3 wrong entries is unlocked by choosing a new one. */
export async function chooseNewPin(
  db: DB,
  issuer: CardIssuer,
  userId: string,
  cardId: string,
  pin: string,
): Promise<CardActionResult> {
  const card = await ownedCard(db, userId, cardId);
  if (!card) return NOT_FOUND;
  if (card.status === "blocked") return BLOCKED;
  if (card.type !== "physical" || card.pin_can_update !== 1) return { kind: "notAllowed" };
  if (!/^\d{4}$/.test(pin)) return { kind: "notAllowed" };
  try {
    const key = await issuer.pinEncryptionKey();
    await issuer.updatePin(card.issuer_ref, encryptPin(pin, key));
    // A new PIN unlocks one locked by wrong tries at terminals (issue 17, decision 0035).
    await db.deleteFrom("card_pin_attempts").where("card_id", "=", card.id).execute();
    return OK;
  } catch (err) {
    if (err instanceof IssuerError) return ISSUER_FAILED;
    throw err;
  }
}

/** Which secret a card can show: details for a virtual card, the PIN for a physical one (spec 000 §2). */
export function revealKindFor(type: string): RevealKind {
  return type === "virtual" ? "details" : "pin";
}

/**
 * With an issuer whose elements draw the secret in the browser (Stripe Issuing): what its script needs
 * to make a nonce for the signed-in person's own card; null with any other issuer or card.
 */
export async function browserRevealTarget(
  db: DB,
  issuer: CardIssuer,
  userId: string,
  cardId: string,
  kind: RevealKind,
): Promise<{ publishableKey: string; issuingCard: string } | null> {
  if (!issuer.browserReveal) return null;
  const card = await ownedCard(db, userId, cardId);
  if (!card || card.status === "blocked" || revealKindFor(card.type) !== kind) return null;
  return { publishableKey: issuer.browserReveal.publishableKey, issuingCard: card.issuer_ref };
}

export async function openRevealSession(
  db: DB,
  issuer: CardIssuer,
  userId: string,
  cardId: string,
  kind: RevealKind,
  nonce: string,
): Promise<RevealSession | { kind: "notFound" } | { kind: "blocked" } | { kind: "issuerFailed" }> {
  const card = await ownedCard(db, userId, cardId);
  if (!card) return { kind: "notFound" };
  if (card.status === "blocked") return { kind: "blocked" };
  if (revealKindFor(card.type) !== kind) return { kind: "notFound" };
  try {
    return await issuer.createRevealSession(card.issuer_ref, kind, nonce);
  } catch (err) {
    if (err instanceof IssuerError) return { kind: "issuerFailed" };
    throw err;
  }
}
