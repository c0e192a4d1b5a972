import { cardCreatedFacts, type NotificationFacts } from "../services/notifications";
import { allowanceFacts } from "../services/allowances/notifications";
import { requestFacts } from "../services/refunds/events";
import { walletSummaries } from "../services/wallets";
import type { DB } from "./index";

/**
 * The facts of a demo notification (issue 30 §4), read from the demo's own rows as their producers would have
 * written them when the event happened: a card payment's amount, merchant and decline, a card's kind and last four,
 * a wallet's deposit or expiring amount, a refund request's or an allowance's figures. Null for a type or a row the
 * demo does not have (the centre then says the type's sentence, as for older rows).
 */
export async function demoNotificationFacts(
  db: DB,
  userId: string,
  type: string,
  dataId: string,
  now: Date,
): Promise<NotificationFacts | null> {
  if (type.startsWith("card_authorization_")) {
    const payment = await db
      .selectFrom("card_authorizations")
      .select(["amount", "merchant_name", "status_reason", "decline_detail"])
      .where("id", "=", dataId)
      .executeTakeFirst();
    if (!payment) return null;
    const declined = type === "card_authorization_declined_notification";
    return {
      amount: payment.amount,
      merchant: payment.merchant_name,
      ...(declined
        ? {
            code: payment.status_reason,
            detail: payment.decline_detail ? (JSON.parse(payment.decline_detail) as unknown) : null,
          }
        : {}),
    };
  }
  if (type === "card_created_to_user_notification") {
    const card = await db.selectFrom("cards").select(["type", "last_four"]).where("id", "=", dataId).executeTakeFirst();
    return card ? cardCreatedFacts(card.type, card.last_four) : null;
  }
  if (type === "wallet_reload_notification" || type === "wallet_expire_in_notification")
    return walletFacts(db, userId, type, dataId, now);
  if (type.startsWith("expense_request_")) return (await requestFacts(db, userId, dataId)) ?? null;
  if (type.startsWith("allowance_")) return (await allowanceFacts(db, userId, dataId)) ?? null;
  return null;
}

/** A reload: its last deposit (and the balance now, see below); an expiry: the balance that ends first, and when. */
async function walletFacts(
  db: DB,
  userId: string,
  type: string,
  walletId: string,
  now: Date,
): Promise<NotificationFacts | null> {
  const [summary] = await walletSummaries(db, userId, [walletId], now);
  const reload = type === "wallet_reload_notification";
  const balance = await db
    .selectFrom("wallet_balances")
    .select(["balance", "deposit_amount", "end_date"])
    .where("wallet_id", "=", walletId)
    .where("balance", ">", 0)
    .orderBy("end_date", reload ? "desc" : "asc")
    .executeTakeFirst();
  if (!summary || !balance) return null;
  if (!reload) return { wallet: summary.name, amount: balance.balance, endDate: balance.end_date };
  // The balance after the reload is known only if nothing was spent since: a smaller one now would contradict it.
  const after = summary.available !== null && summary.available >= balance.deposit_amount ? summary.available : null;
  return { wallet: summary.name, amount: balance.deposit_amount, balance: after, endDate: balance.end_date };
}
