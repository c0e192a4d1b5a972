import type { Selectable } from "kysely";
import type { DB } from "../db";
import type { CardRequestTable } from "../db/schema";
import { newId } from "../ids";
import { encryptPin } from "../providers/issuer/pin";
import {
  IssuerError,
  type AddressField,
  type CardIssuer,
  type NewCardInput,
  type ShippingAddress,
} from "../providers/issuer/port";
import { cardCreatedFacts, deliverNotification, recordNotification, type Notifier } from "./notifications";
import type { CardType, CardCreationOptions } from "~/domain/card-creation";

export async function cardCreationOptions(db: DB, userId: string): Promise<CardCreationOptions> {
  const groups = await db
    .selectFrom("memberships")
    .innerJoin("groups", "groups.id", "memberships.group_id")
    .select(["groups.id", "groups.name"])
    .where("memberships.user_id", "=", userId)
    .where("groups.can_issue", "=", 1)
    .orderBy("groups.name")
    .orderBy("groups.id")
    .execute();
  const licences = await db
    .selectFrom("licences")
    .select(["group_id", "license_type"])
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .where("license_type", "in", ["physical_card", "virtual_card"])
    .execute();
  const count = (groupId: string, type: CardType) =>
    licences.filter((l) => l.group_id === groupId && l.license_type === `${type}_card`).length;
  const issuing = groups.map((g) => ({
    id: g.id,
    name: g.name,
    licences: { physical: count(g.id, "physical"), virtual: count(g.id, "virtual") },
  }));
  const blocked =
    issuing.length === 0
      ? "noGroup"
      : issuing.every((g) => g.licences.physical + g.licences.virtual === 0)
        ? "noLicence"
        : null;
  return { groups: issuing, blocked };
}

export interface CardRequestView {
  id: string;
  groupId: string;
  type: CardType;
  status: "draft" | "submitted" | "issued";
  hasPin: boolean;
  address: ShippingAddress | null;
  cardId: string | null;
}

/** Only this user's requests: another user's id reads as unknown. */
export async function getCardRequest(db: DB, userId: string, requestId: string): Promise<CardRequestView | null> {
  const row = await db
    .selectFrom("card_requests")
    .selectAll()
    .where("id", "=", requestId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    groupId: row.group_id,
    type: row.type === "virtual" ? "virtual" : "physical",
    status: row.status === "issued" ? "issued" : row.status === "submitted" ? "submitted" : "draft",
    hasPin: row.pin_ciphertext !== null,
    address:
      row.line1 && row.zipcode && row.city && row.country
        ? { line1: row.line1, line2: row.line2, zipcode: row.zipcode, city: row.city, country: row.country }
        : null,
    cardId: row.card_id,
  };
}

/** The address the delivery step starts from: the one in the user's profile, if any. */
export async function profileAddress(db: DB, userId: string): Promise<ShippingAddress | null> {
  const row = await db
    .selectFrom("users")
    .select(["address_line1", "address_line2", "address_zipcode", "address_city", "address_country"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!row?.address_line1 || !row.address_zipcode || !row.address_city || !row.address_country) return null;
  return {
    line1: row.address_line1,
    line2: row.address_line2,
    zipcode: row.address_zipcode,
    city: row.address_city,
    country: row.address_country,
  };
}

/** Request ids come back from the browser in forms and URLs: only well-formed ones are looked up. */
export function isRequestId(value: unknown): value is string {
  return typeof value === "string" && /^creq_[A-Za-z0-9_-]{16}$/.test(value);
}

export function newRequestId(): string {
  return newId("creq");
}

export type ChoiceResult = { kind: "ok" | "forged" | "noGroup" | "noLicence" | "submitted" };

/** A card request not submitted within a day is considered abandoned. */
export const ABANDONED_DRAFT_MS = 24 * 60 * 60 * 1000;

/**
 * Step 1: records the funder and the type on the request (created here on first use). The group must
 * be one of the user's issuing groups with a licence of that type left.
 */
export async function saveCardChoice(
  db: DB,
  userId: string,
  requestId: string,
  choice: { groupId: string; type: CardType },
  now = new Date(),
): Promise<ChoiceResult> {
  const existing = await db
    .selectFrom("card_requests")
    .select(["user_id", "status"])
    .where("id", "=", requestId)
    .executeTakeFirst();
  if (existing && existing.user_id !== userId) return { kind: "forged" };
  // A replay is recognised before anything else: its licence is already spent.
  if (existing && existing.status !== "draft") return { kind: "submitted" };
  const options = await cardCreationOptions(db, userId);
  const group = options.groups.find((g) => g.id === choice.groupId);
  if (!group) return { kind: "noGroup" };
  if (group.licences[choice.type] === 0) return { kind: "noLicence" };
  if (existing) {
    await db
      .updateTable("card_requests")
      .set({ group_id: group.id, type: choice.type, updated_at: now.toISOString() })
      .where("id", "=", requestId)
      .where("user_id", "=", userId)
      .where("status", "=", "draft")
      .execute();
    return { kind: "ok" };
  }
  // Requests abandoned a day ago or more go (they may hold an encrypted PIN and an address).
  await db
    .deleteFrom("card_requests")
    .where("user_id", "=", userId)
    .where("status", "=", "draft")
    .where("updated_at", "<", new Date(now.getTime() - ABANDONED_DRAFT_MS).toISOString())
    .execute();
  try {
    await db
      .insertInto("card_requests")
      .values({
        id: requestId,
        user_id: userId,
        group_id: group.id,
        type: choice.type,
        status: "draft",
        attempt: 0,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .execute();
  } catch {
    // The same request id inserted twice at once (a double submit): the other insert won.
    const winner = await db
      .selectFrom("card_requests")
      .select(["user_id", "status"])
      .where("id", "=", requestId)
      .executeTakeFirst();
    if (!winner || winner.user_id !== userId) return { kind: "forged" };
    if (winner.status !== "draft") return { kind: "submitted" };
  }
  return { kind: "ok" };
}

export type StepResult = { kind: "ok" | "notFound" | "submitted" | "wrongType" | "issuerFailed" };

async function draftOf(db: DB, userId: string, requestId: string) {
  return db
    .selectFrom("card_requests")
    .select(["id", "status", "type"])
    .where("id", "=", requestId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

/** Step 2 (physical): the PIN leaves this function only encrypted with the issuer's public key. */
export async function saveCardPin(
  db: DB,
  issuer: CardIssuer,
  userId: string,
  requestId: string,
  pin: string,
  now = new Date(),
): Promise<StepResult> {
  const draft = await draftOf(db, userId, requestId);
  if (!draft) return { kind: "notFound" };
  if (draft.status !== "draft") return { kind: "submitted" };
  if (draft.type !== "physical") return { kind: "wrongType" };
  if (!/^\d{4}$/.test(pin)) throw new Error("saveCardPin: the PIN must be validated first");
  let ciphertext: string;
  try {
    ciphertext = encryptPin(pin, await issuer.pinEncryptionKey());
  } catch (err) {
    if (err instanceof IssuerError) return { kind: "issuerFailed" };
    throw err;
  }
  await db
    .updateTable("card_requests")
    .set({ pin_ciphertext: ciphertext, updated_at: now.toISOString() })
    .where("id", "=", requestId)
    .where("user_id", "=", userId)
    .where("status", "=", "draft")
    .execute();
  return { kind: "ok" };
}

/** Step 3 (physical): the delivery address, already validated against spec 000 §5. */
export async function saveShippingAddress(
  db: DB,
  userId: string,
  requestId: string,
  address: ShippingAddress,
  now = new Date(),
): Promise<StepResult> {
  const draft = await draftOf(db, userId, requestId);
  if (!draft) return { kind: "notFound" };
  if (draft.status !== "draft") return { kind: "submitted" };
  if (draft.type !== "physical") return { kind: "wrongType" };
  await db
    .updateTable("card_requests")
    .set({ ...address, updated_at: now.toISOString() })
    .where("id", "=", requestId)
    .where("user_id", "=", userId)
    .where("status", "=", "draft")
    .execute();
  return { kind: "ok" };
}

export type SubmitResult =
  /** The card exists (cardId), or the issuer is still making it (null). */
  | { kind: "created"; cardId: string | null }
  /** This request was already submitted (a double submit or a replay): nothing new was made. */
  | { kind: "replayed"; cardId: string | null }
  | { kind: "notFound" }
  | { kind: "incomplete"; missing: "pin" | "address" }
  | { kind: "noLicence" }
  | { kind: "addressRefused"; field: AddressField | null }
  | { kind: "pinRefused" }
  | { kind: "issuerFailed"; code: string; message: string | null };

class NoLicenceLeft extends Error {}

/** Takes one free licence of this type, or throws NoLicenceLeft. Safe against a concurrent taker. */
async function takeLicence(trx: DB, userId: string, groupId: string, type: CardType, now: string): Promise<string> {
  for (let tries = 0; tries < 3; tries++) {
    const free = await trx
      .selectFrom("licences")
      .select("id")
      .where("user_id", "=", userId)
      .where("group_id", "=", groupId)
      .where("license_type", "=", `${type}_card`)
      .where("used_at", "is", null)
      .orderBy("id")
      .executeTakeFirst();
    if (!free) break;
    const taken = await trx
      .updateTable("licences")
      .set({ used_at: now })
      .where("id", "=", free.id)
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) return free.id;
  }
  throw new NoLicenceLeft();
}

type CardRequestRow = Selectable<CardRequestTable>;

/** The delivery address a request holds, when every part of it is there. */
function addressOf(request: CardRequestRow): ShippingAddress | null {
  return request.line1 && request.zipcode && request.city && request.country
    ? {
        line1: request.line1,
        line2: request.line2,
        zipcode: request.zipcode,
        city: request.city,
        country: request.country,
      }
    : null;
}

/**
 * Marks the draft submitted and takes its licence, in one transaction: null when another submit of this same
 * request got there first (the claim is the guard); throws NoLicenceLeft (the claim rolled back) when none is free.
 */
function claimRequest(db: DB, request: CardRequestRow, type: CardType, stamp: string): Promise<string | null> {
  return db.transaction().execute(async (trx): Promise<string | null> => {
    const claimed = await trx
      .updateTable("card_requests")
      .set({ status: "submitted", submitted_at: stamp, updated_at: stamp })
      .where("id", "=", request.id)
      .where("user_id", "=", request.user_id)
      .where("status", "=", "draft")
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return null;
    const id = await takeLicence(trx, request.user_id, request.group_id, type, stamp);
    await trx.updateTable("card_requests").set({ licence_id: id }).where("id", "=", request.id).execute();
    return id;
  });
}

/** What the issuer is asked for this request: the cardholder (billed at the delivery, profile or funder's address). */
async function issueRequestOf(
  db: DB,
  request: CardRequestRow,
  type: CardType,
  address: ShippingAddress | null,
): Promise<NewCardInput> {
  const [user, group] = await Promise.all([
    db.selectFrom("users").selectAll().where("id", "=", request.user_id).executeTakeFirstOrThrow(),
    db.selectFrom("groups").selectAll().where("id", "=", request.group_id).executeTakeFirstOrThrow(),
  ]);
  const groupAddress = {
    line1: group.address_line1,
    line2: null,
    zipcode: group.address_zipcode,
    city: group.address_city,
    country: group.address_country,
  };
  const userAddress =
    user.address_line1 && user.address_zipcode && user.address_city && user.address_country
      ? {
          line1: user.address_line1,
          line2: user.address_line2,
          zipcode: user.address_zipcode,
          city: user.address_city,
          country: user.address_country,
        }
      : null;
  return {
    // One key per attempt: a corrected address is a new request to the issuer; a replay, or a retry after the
    // issuer did not answer, is not (decision 0043).
    requestKey: `${request.id}:${request.attempt}`,
    cardholder: {
      ref: user.issuer_cardholder_ref,
      userId: request.user_id,
      firstName: user.first_name ?? "",
      lastName: user.last_name ?? "",
      email: user.email,
      phone: user.phone,
      billingAddress: address ?? userAddress ?? groupAddress,
    },
    type,
    brand: group.cards_brand,
    ...(type === "physical" ? { encryptedPin: request.pin_ciphertext!, shippingAddress: address! } : {}),
  };
}

/**
 * The issuer said no, or did not answer: the licence goes back and the request is a draft again, for the user to
 * correct or resend. No answer (a timeout, a dropped connection) means the outcome is unknown — the issuer may have
 * made the card — so the attempt keeps its number: the retry sends the same idempotency key and gets that card back
 * rather than a second one (decision 0043). A refusal, or a failure the issuer answered (which it replays for the
 * same key), made nothing: the next attempt is a new request.
 */
async function giveBack(db: DB, request: CardRequestRow, licenceId: string, err: IssuerError): Promise<SubmitResult> {
  const outcomeUnknown = err.outcomeUnknown;
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("licences").set({ used_at: null }).where("id", "=", licenceId).execute();
    await trx
      .updateTable("card_requests")
      .set({
        status: "draft",
        licence_id: null,
        submitted_at: null,
        attempt: outcomeUnknown ? request.attempt : request.attempt + 1,
        updated_at: new Date().toISOString(),
        ...(err.code === "invalid_pin" ? { pin_ciphertext: null } : {}),
      })
      .where("id", "=", request.id)
      .execute();
  });
  if (err.code === "invalid_address") return { kind: "addressRefused", field: err.field ?? null };
  if (err.code === "invalid_pin") return { kind: "pinRefused" };
  // The issuer's own words come along (spec 000 §8: failures "shown with server messages").
  return {
    kind: "issuerFailed",
    code: err.code,
    // No answer came: there is no server message to show, only that the service does not answer.
    message: !err.outcomeUnknown && err.message && err.message !== err.code ? err.message : null,
  };
}

/** The issuer took the request: its reference on the request, the cardholder's and the delivery address on the user. */
function recordIssued(
  db: DB,
  request: CardRequestRow,
  issued: { issuerRef: string; cardholderRef: string },
  address: ShippingAddress | null,
): Promise<void> {
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable("card_requests")
      .set({ issuer_ref: issued.issuerRef, updated_at: new Date().toISOString() })
      .where("id", "=", request.id)
      .execute();
    // Spec 000 §7: a physical card ships to the user's address, which the delivery step updates.
    await trx
      .updateTable("users")
      .set({
        issuer_cardholder_ref: issued.cardholderRef,
        ...(address
          ? {
              address_line1: address.line1,
              address_line2: address.line2,
              address_zipcode: address.zipcode,
              address_city: address.city,
              address_country: address.country,
            }
          : {}),
      })
      .where("id", "=", request.user_id)
      .execute();
  });
}

/**
 * Final step: claims the draft and takes the licence, asks the issuer, and records the card once it is made. A
 * request already submitted (a double submit, a replay, a simultaneous submit losing the claim) answers `replayed`.
 */
export async function submitCardRequest(
  db: DB,
  issuer: CardIssuer,
  userId: string,
  requestId: string,
  now = new Date(),
  notifier: Notifier = {},
): Promise<SubmitResult> {
  const request = await db
    .selectFrom("card_requests")
    .selectAll()
    .where("id", "=", requestId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!request) return { kind: "notFound" };
  if (request.status !== "draft") return { kind: "replayed", cardId: request.card_id };
  const type: CardType = request.type === "virtual" ? "virtual" : "physical";
  const address = addressOf(request);
  if (type === "physical" && !request.pin_ciphertext) return { kind: "incomplete", missing: "pin" };
  if (type === "physical" && !address) return { kind: "incomplete", missing: "address" };

  let licenceId: string | null;
  try {
    licenceId = await claimRequest(db, request, type, now.toISOString());
  } catch (err) {
    if (err instanceof NoLicenceLeft) return { kind: "noLicence" };
    throw err;
  }
  if (!licenceId) {
    // Another submit of this same request got there first.
    const winner = await db
      .selectFrom("card_requests")
      .select("card_id")
      .where("id", "=", requestId)
      .executeTakeFirst();
    return { kind: "replayed", cardId: winner?.card_id ?? null };
  }

  let issued;
  try {
    issued = await issuer.issueCard(await issueRequestOf(db, request, type, address));
  } catch (err) {
    if (!(err instanceof IssuerError)) throw err;
    return giveBack(db, request, licenceId, err);
  }
  await recordIssued(db, request, issued, address);
  const cardId = await settleCardRequest(db, issuer, requestId, notifier);
  return { kind: "created", cardId };
}

/**
 * Records the card of a submitted request once the issuer has made it: the card row, its links to the
 * user's wallets from the same funder, and a "card created" notification (its e-mail and push sent after
 * the commit, by the one call that recorded the card). Returns the card id, or null while the issuer is
 * still at work.
 */
async function settleCardRequest(
  db: DB,
  issuer: CardIssuer,
  requestId: string,
  notifier: Notifier,
): Promise<string | null> {
  const request = await db.selectFrom("card_requests").selectAll().where("id", "=", requestId).executeTakeFirst();
  if (!request) return null;
  if (request.card_id) return request.card_id;
  if (request.status !== "submitted" || !request.issuer_ref) return null;
  let card;
  try {
    card = await issuer.issuedCard(request.issuer_ref);
  } catch (err) {
    if (err instanceof IssuerError) return null;
    throw err;
  }
  if (!card) return null;
  const cardId = newId("card");
  const stamp = new Date().toISOString();
  const made = await db.transaction().execute(async (trx) => {
    const settled = await trx
      .updateTable("card_requests")
      .set({ status: "issued", updated_at: stamp })
      .where("id", "=", requestId)
      .where("status", "=", "submitted")
      .executeTakeFirst();
    // Two polls at once: only one records the card.
    if (Number(settled.numUpdatedRows) !== 1) return false;
    const physical = request.type === "physical";
    await trx
      .insertInto("cards")
      .values({
        id: cardId,
        user_id: request.user_id,
        group_id: request.group_id,
        type: physical ? "physical" : "virtual",
        brand: card.brand,
        last_four: card.lastFour,
        issuer_ref: card.issuerRef,
        status: "active",
        frozen: 0,
        block_reason: null,
        pin_can_update: physical ? 1 : 0,
        shipping_status: physical ? (card.shipping?.status ?? "pending") : null,
        shipping_eta: physical ? (card.shipping?.eta ?? null) : null,
        shipping_line1: physical ? request.line1 : null,
        shipping_line2: physical ? request.line2 : null,
        shipping_zipcode: physical ? request.zipcode : null,
        shipping_city: physical ? request.city : null,
        shipping_country: physical ? request.country : null,
        created_at: stamp,
      })
      .execute();
    await trx.updateTable("card_requests").set({ card_id: cardId }).where("id", "=", requestId).execute();
    const wallets = await trx
      .selectFrom("wallets")
      .select("id")
      .where("user_id", "=", request.user_id)
      .where("group_id", "=", request.group_id)
      .orderBy("created_at")
      .orderBy("name")
      .execute();
    if (wallets.length > 0) {
      await trx
        .insertInto("card_wallets")
        .values(wallets.map((w, position) => ({ card_id: cardId, wallet_id: w.id, position })))
        .execute();
    }
    const facts = cardCreatedFacts(request.type, card.lastFour);
    await recordNotification(trx, request.user_id, "card_created_to_user_notification", cardId, new Date(stamp), facts);
    return true;
  });
  if (made) {
    await deliverNotification({ db, ...notifier }, request.user_id, "card_created_to_user_notification", cardId, {
      facts: cardCreatedFacts(request.type, card.lastFour),
    });
    return cardId;
  }
  const winner = await db.selectFrom("card_requests").select("card_id").where("id", "=", requestId).executeTakeFirst();
  return winner?.card_id ?? null;
}

/** Records every card of this user that the issuer has finished since the last look (the wait screen's poll). */
export async function settleCardRequests(
  db: DB,
  issuer: CardIssuer,
  userId: string,
  notifier: Notifier = {},
): Promise<void> {
  const pending = await db
    .selectFrom("card_requests")
    .select("id")
    .where("user_id", "=", userId)
    .where("status", "=", "submitted")
    .where("issuer_ref", "is not", null)
    .execute();
  for (const request of pending) await settleCardRequest(db, issuer, request.id, notifier);
}

/** True while a submitted card is still being made by the issuer. */
export async function hasCardInTheMaking(db: DB, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("card_requests")
    .select("id")
    .where("user_id", "=", userId)
    .where("status", "=", "submitted")
    .executeTakeFirst();
  return row !== undefined;
}
