import type { DB } from "../db";
import { newId } from "../ids";
import { PaymentError, type CardSetup, type PaymentProcessor } from "../providers/payments/port";
import type { Account } from "./accounts";

/**
 * Saved credit cards (spec 000 §2 "Balance overflow panel", §4): the cards a purchase falls back on
 * when the wallets run short. The processor holds the cards; the portal keeps their brand, last four
 * digits, expiry and which one is the default — at most one, always.
 */
export interface CreditCardView {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  isDefault: boolean;
}

export async function listCreditCards(db: DB, userId: string): Promise<CreditCardView[]> {
  const rows = await db
    .selectFrom("credit_cards")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    brand: r.brand,
    last4: r.last4,
    expMonth: r.exp_month,
    expYear: r.exp_year,
    isDefault: r.is_default === 1,
  }));
}

export type CreditCardResult = { kind: "ok" | "notFound" | "processorFailed" };

/** Spec 000 §4: turning one on unsets every other default; turning it off leaves none. */
export async function setDefaultCreditCard(
  db: DB,
  userId: string,
  creditCardId: string,
  makeDefault: boolean,
): Promise<CreditCardResult> {
  return db.transaction().execute(async (trx) => {
    const card = await trx
      .selectFrom("credit_cards")
      .select("id")
      .where("id", "=", creditCardId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (!card) return { kind: "notFound" };
    if (makeDefault) {
      await trx
        .updateTable("credit_cards")
        .set({ is_default: 0 })
        .where("user_id", "=", userId)
        .where("id", "!=", card.id)
        .execute();
    }
    await trx
      .updateTable("credit_cards")
      .set({ is_default: makeDefault ? 1 : 0 })
      .where("id", "=", card.id)
      .execute();
    return { kind: "ok" };
  });
}

/** Spec 000 §4: a default card is unset first, then removed from the processor, then from the list. */
export async function deleteCreditCard(
  db: DB,
  payments: PaymentProcessor,
  userId: string,
  creditCardId: string,
): Promise<CreditCardResult> {
  const card = await db
    .selectFrom("credit_cards")
    .select(["id", "processor_ref", "is_default"])
    .where("id", "=", creditCardId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!card) return { kind: "notFound" };
  const customerRef = await customerRefOf(db, userId);
  if (card.is_default === 1)
    await db.updateTable("credit_cards").set({ is_default: 0 }).where("id", "=", card.id).execute();
  try {
    if (customerRef) await payments.detachCard(customerRef, card.processor_ref);
  } catch (err) {
    if (!(err instanceof PaymentError)) throw err;
    // Already gone at the processor: removing it here too is what the user asked for.
    if (err.code !== "notFound") return { kind: "processorFailed" };
  }
  await db.deleteFrom("credit_cards").where("id", "=", card.id).where("user_id", "=", userId).execute();
  return { kind: "ok" };
}

async function customerRefOf(db: DB, userId: string): Promise<string | null> {
  const row = await db.selectFrom("users").select("processor_customer_ref").where("id", "=", userId).executeTakeFirst();
  return row?.processor_customer_ref ?? null;
}

/** Opens the processor's card fields for this user (creating the processor's customer on first use). */
export async function startCreditCardSetup(
  db: DB,
  payments: PaymentProcessor,
  account: Account,
  returnUrl: string,
): Promise<CardSetup | "processorFailed"> {
  try {
    const { customerRef, setup } = await payments.startCardSetup(
      {
        ref: await customerRefOf(db, account.id),
        userId: account.id,
        email: account.email,
        name: [account.firstName, account.lastName].filter(Boolean).join(" ") || account.email,
      },
      returnUrl,
    );
    await db
      .updateTable("users")
      .set({ processor_customer_ref: customerRef })
      .where("id", "=", account.id)
      .where("processor_customer_ref", "is", null)
      .execute();
    return setup;
  } catch (err) {
    if (err instanceof PaymentError) return "processorFailed";
    throw err;
  }
}

/** Adds to the portal's list every card the processor holds for this user that the list lacks. */
export async function syncCreditCards(db: DB, payments: PaymentProcessor, userId: string): Promise<void> {
  const customerRef = await customerRefOf(db, userId);
  if (!customerRef) return;
  const saved = await payments.listCards(customerRef);
  const known = new Set(
    (await db.selectFrom("credit_cards").select("processor_ref").where("user_id", "=", userId).execute()).map(
      (r) => r.processor_ref,
    ),
  );
  for (const card of saved.filter((c) => !known.has(c.ref))) {
    await db
      .insertInto("credit_cards")
      .values({
        id: newId("cc"),
        user_id: userId,
        brand: card.brand,
        last4: card.last4,
        exp_month: card.expMonth,
        exp_year: card.expYear,
        is_default: 0,
        processor_ref: card.ref,
        created_at: new Date().toISOString(),
      })
      // Another refresh added it a moment ago (unique processor_ref).
      .onConflict((oc) => oc.column("processor_ref").doNothing())
      .execute();
  }
}

export type SetupOutcome = "added" | "verifying" | "failed" | "notFound" | "processorFailed";

/** Spec 000 §4 / §9: after a setup the list is read again, up to 3 times (0, 1, 2 s), until the card shows. */
export const SETUP_RETRY_DELAYS_MS = [0, 1000, 2000];

export async function completeCreditCardSetup(
  db: DB,
  payments: PaymentProcessor,
  userId: string,
  setupRef: string,
  delays: number[] = SETUP_RETRY_DELAYS_MS,
): Promise<SetupOutcome> {
  const customerRef = await customerRefOf(db, userId);
  if (!customerRef) return "notFound";
  try {
    const result = await payments.setupResult(customerRef, setupRef);
    if (result.status === "failed") return "failed";
    if (result.status === "pending" || !result.cardRef) return "verifying";
    for (const delay of delays) {
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      await syncCreditCards(db, payments, userId);
      const listed = await db
        .selectFrom("credit_cards")
        .select("id")
        .where("user_id", "=", userId)
        .where("processor_ref", "=", result.cardRef)
        .executeTakeFirst();
      if (listed) return "added";
    }
    return "verifying";
  } catch (err) {
    if (!(err instanceof PaymentError)) throw err;
    return err.code === "notFound" ? "notFound" : "processorFailed";
  }
}
