import type { DB } from "../../app/.server/db";
import { createAccount, type AccountSpec } from "../../app/.server/db/factories";
import { newId } from "../../app/.server/ids";
import { authorise, type AuthoriseRequest } from "../../app/.server/services/authorisations";

/**
 * What the card payment tests share (the engine, its lifecycle, the switch, the orchestrator): a fixed clock, two
 * merchants, a person with a card •••• 4242 and wallets, and a payment request. Test code only.
 */

/** Tuesday 24 November 2026, 12:30 in Paris; Sunday the 22nd, 12:30. */
export const TUESDAY = new Date("2026-11-24T11:30:00Z");
export const SUNDAY = new Date("2026-11-22T11:30:00Z");
export const RESTAURANT = { name: "Le Petit Café", city: "Lyon", country: "FR", categoryCode: "5812" };
export const BOOKSHOP = { name: "Librairie Mollat", city: "Bordeaux", country: "FR", categoryCode: "5942" };

/**
 * A fresh person: card •••• 4242 (physical, delivered) linked to the wallets named in `cardWallets` (default: all
 * of theirs, in order); by default Titres-restaurant 100 € then Cadeaux 50 €.
 */
export function paymentPerson(db: DB, spec: Partial<AccountSpec> & { cardWallets?: string[]; frozen?: boolean } = {}) {
  const { cardWallets, frozen, ...rest } = spec;
  const wallets = rest.wallets ?? [
    { name: "Titres-restaurant", type: "meal", balance: 10000 },
    { name: "Cadeaux", type: "gift", balance: 5000 },
  ];
  return createAccount(
    db,
    {
      email: `payer-${newId("e")}@example.com`,
      passwordHash: "x",
      wallets,
      cards: [{ type: "physical", lastFour: "4242", frozen, wallets: cardWallets ?? wallets.map((w) => w.name) }],
      ...rest,
    },
    TUESDAY,
  );
}

/** 12,50 € at a restaurant, contactless, on Tuesday at 12:30, unless `fields` say otherwise. */
export const cardRequest = (cardId: string, fields: Partial<AuthoriseRequest> = {}): AuthoriseRequest => ({
  card: { id: cardId },
  amount: 1250,
  currency: "EUR",
  merchant: RESTAURANT,
  at: TUESDAY,
  entryMode: "contactless",
  ...fields,
});

/** An approved payment's id (the test fails on anything else). */
export async function approvedPayment(db: DB, cardId: string, fields: Partial<AuthoriseRequest> = {}) {
  const result = await authorise({ db }, cardRequest(cardId, fields));
  if (result.kind !== "approved") throw new Error(`expected an approval, got ${JSON.stringify(result)}`);
  return result.authorizationId;
}
