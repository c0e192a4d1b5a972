import { sql } from "kysely";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { eventOf } from "~/domain/stripe-issuing";
import { readDeclineDetail } from "~/domain/authorisation";
import type { DatabaseHandle } from "../db";
import { createAccount } from "../db/factories";
import { openTestDatabase } from "../../../tests/support/test-database";
import { createLogger } from "../logger";
import { SandboxMessenger } from "../providers/messaging/sandbox";
import { SandboxPaymentProcessor } from "../providers/payments/sandbox";
import { SandboxPushSender } from "../providers/push/sandbox";
import { metricsRegistry } from "../metrics";
import { handleStripeEvent, verifyStripeEvent, type WebhookDeps } from "./stripe-webhook";
import { listWallets } from "./wallets";

/**
 * Stripe Issuing's events applied to the records (decision 0036), on SQLite and on PostgreSQL (TEST_DATABASE_URL):
 * signatures made by the `stripe` package's own test helper; events shaped as Stripe documents them.
 */
const TUESDAY = new Date("2026-11-24T11:30:00Z");
const SUNDAY = new Date("2026-11-22T11:30:00Z");
const SECRET = "whsec_test_secret_for_the_webhook_tests";

let handle: DatabaseHandle;
let deps: WebhookDeps;
const lines: string[] = [];
beforeAll(async () => {
  handle = await openTestDatabase();
  deps = {
    db: handle.db,
    payments: new SandboxPaymentProcessor(handle.db),
    messenger: new SandboxMessenger(handle.db),
    push: new SandboxPushSender(handle.db),
    logger: createLogger("debug", (line) => lines.push(line)),
  };
});
afterAll(() => handle.close());

let counter = 0;
const next = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(counter += 1)}`;

/** A fresh person with card •••• 4242: its portal id and its Stripe card id (issuer_ref). */
async function person() {
  const p = await createAccount(
    handle.db,
    {
      email: `${next("hook")}@example.com`,
      passwordHash: "x",
      wallets: [
        { name: "Titres-restaurant", type: "meal", balance: 10000 },
        { name: "Cadeaux", type: "gift", balance: 5000 },
      ],
      cards: [{ type: "physical", lastFour: "4242", wallets: ["Titres-restaurant", "Cadeaux"] }],
    },
    TUESDAY,
  );
  const cardId = p.cards["4242"]!;
  const { issuer_ref } = await handle.db
    .selectFrom("cards")
    .select("issuer_ref")
    .where("id", "=", cardId)
    .executeTakeFirstOrThrow();
  return { ...p, cardId, cardRef: issuer_ref! };
}

/** Stripe's issuing authorisation as an `issuing_authorization.request` carries it. */
function authorization(cardRef: string, fields: Record<string, unknown> = {}) {
  return {
    id: next("iauth"),
    object: "issuing.authorization",
    amount: 0,
    approved: false,
    authorization_method: "contactless",
    card: { id: cardRef, object: "issuing.card" },
    created: Math.floor(TUESDAY.getTime() / 1000),
    currency: "eur",
    merchant_amount: 0,
    merchant_currency: "eur",
    merchant_data: {
      category: "eating_places_restaurants",
      category_code: "5812",
      city: "Lyon",
      country: "FR",
      name: "Le Petit Café",
    },
    pending_request: {
      amount: 1250,
      currency: "eur",
      is_amount_controllable: false,
      merchant_amount: 1250,
      merchant_currency: "eur",
    },
    status: "pending",
    transactions: [],
    ...fields,
  };
}

function event(type: string, object: Record<string, unknown>, id = next("evt")) {
  const parsed = eventOf({ id, object: "event", api_version: "2025-03-31.basil", type, data: { object } });
  if (!parsed) throw new Error("not an event");
  return parsed;
}

const request = (object: Record<string, unknown>, id?: string) =>
  handleStripeEvent(deps, event("issuing_authorization.request", object, id), TUESDAY);

async function records(stripeAuthorizationId: string) {
  return handle.db
    .selectFrom("card_authorizations")
    .selectAll()
    .where("stripe_authorization_id", "=", stripeAuthorizationId)
    .execute();
}

async function available(userId: string, name: string) {
  return (await listWallets(handle.db, userId, TUESDAY)).find((w) => w.name === name)?.available;
}

describe("the signature, on the raw body (stripe.webhooks.generateTestHeaderString)", () => {
  const payload = JSON.stringify({ id: "evt_sig", object: "event", type: "ping", data: { object: { id: "x" } } });
  const header = (body: string, fields: { secret?: string; timestamp?: number } = {}) =>
    Stripe.webhooks.generateTestHeaderString({ payload: body, secret: fields.secret ?? SECRET, ...fields });

  test("valid: the event", () => {
    expect(verifyStripeEvent(Buffer.from(payload), header(payload), SECRET)).toMatchObject({
      kind: "event",
      event: { id: "evt_sig", type: "ping" },
    });
  });

  test("missing, another secret's, or a body changed after signing: refused with the reason", () => {
    expect(verifyStripeEvent(Buffer.from(payload), null, SECRET)).toEqual({
      kind: "refused",
      reason: "missing signature",
    });
    expect(verifyStripeEvent(Buffer.from(payload), header(payload, { secret: "whsec_other" }), SECRET)).toEqual({
      kind: "refused",
      reason: "bad signature",
    });
    const signed = header(payload);
    expect(verifyStripeEvent(Buffer.from(payload.replace("ping", "pong")), signed, SECRET)).toEqual({
      kind: "refused",
      reason: "bad signature",
    });
    expect(verifyStripeEvent(Buffer.from(payload), "t=1,v1=deadbeef", SECRET)).toEqual({
      kind: "refused",
      reason: "bad signature",
    });
  });

  test("signed more than 300 s ago: stale; 299 s ago: accepted", () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verifyStripeEvent(Buffer.from(payload), header(payload, { timestamp: now - 301 }), SECRET)).toEqual({
      kind: "refused",
      reason: "stale timestamp",
    });
    expect(verifyStripeEvent(Buffer.from(payload), header(payload, { timestamp: now - 299 }), SECRET).kind).toBe(
      "event",
    );
  });

  test("a malformed header is refused, never thrown: empty or garbage v1, no or two t, huge t (issue 28 §3)", () => {
    const signed = header(payload);
    const t = /t=(\d+)/.exec(signed)![1]!;
    const v1 = /v1=([0-9a-f]+)/.exec(signed)![1]!;
    for (const bad of [
      // Stripe's own parser passed an empty v1 to its comparison, which threw: a 500 with a stack trace.
      "t=1,v1=",
      `t=${t},v1=`,
      "t=,v1=",
      `t=${t},v1`,
      `t=${t},v1=,v1=`,
      `v1=${v1}`,
      `t=${t}`,
      `t=${t},t=${t},v1=${v1}`,
      `t=99999999999999999999,v1=${v1}`,
      `t=1e20,v1=${v1}`,
      `t=-1,v1=${v1}`,
      `t=${t},v1=${"z".repeat(64)}`,
      `t=${t},v1=${v1.toUpperCase()}`,
      `t=${t},v1=${v1.slice(1)}`,
      ",,,",
      "=",
      "t",
      "t==,v1==",
      `t=${t},v1=é`,
      "x".repeat(8000),
    ]) {
      expect(verifyStripeEvent(Buffer.from(payload), bad, SECRET), bad.slice(0, 40)).toEqual({
        kind: "refused",
        reason: "bad signature",
      });
    }
    // Parts of another scheme or shape beside a good signature are ignored, as Stripe's own v0 is.
    expect(verifyStripeEvent(Buffer.from(payload), `${signed},v1=,v0=abc,garbage`, SECRET).kind).toBe("event");
    expect(verifyStripeEvent(Buffer.from(payload), ` t=${t} , v1=${v1} `, SECRET).kind).toBe("event");
  });

  test("signed with a timestamp far ahead: refused (Stripe's check only looks back); 1e20 is no timestamp", () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verifyStripeEvent(Buffer.from(payload), header(payload, { timestamp: now + 301 }), SECRET)).toEqual({
      kind: "refused",
      reason: "future timestamp",
    });
    expect(verifyStripeEvent(Buffer.from(payload), header(payload, { timestamp: now + 299 }), SECRET).kind).toBe(
      "event",
    );
    // Stripe's own check accepted this one (its age is negative): a signature valid for ever.
    expect(verifyStripeEvent(Buffer.from(payload), header(payload, { timestamp: 1e20 }), SECRET)).toEqual({
      kind: "refused",
      reason: "bad signature",
    });
  });

  test("signed bodies that are not events: refused, never thrown", () => {
    const deep = `${"[".repeat(20000)}${"]".repeat(20000)}`;
    for (const body of [
      "",
      "null",
      "42",
      '"evt_1"',
      "[]",
      "[1,2]",
      "true",
      "{}",
      deep,
      "1e999",
      '{"id": 42, "type": "ping", "data": {"object": {}}}',
      `{"id": "evt_1", "type": "${"x".repeat(500)}", "data": {"object": {}}}`,
      '{"id": "evt_1", "type": "ping", "data": {"object": [1]}}',
      '{"id": "evt_1", "type": "ping", "data": null}',
      '{"id": "evt\u0000", "type": "ping", "data": {"object": {}}}',
    ]) {
      const verified = verifyStripeEvent(Buffer.from(body), header(body), SECRET);
      expect(verified.kind, body.slice(0, 40)).toBe("refused");
    }
    // Duplicated keys: JSON's last one wins, as Stripe signed it; still checked.
    const twice = '{"id": "evt_1", "id": "evt 2", "type": "ping", "data": {"object": {}}}';
    expect(verifyStripeEvent(Buffer.from(twice), header(twice), SECRET)).toEqual({
      kind: "refused",
      reason: "not an event",
    });
  });

  test("signed but not JSON, or JSON that is not an event: refused", () => {
    const broken = '{"id": "evt_1", "type": ';
    expect(verifyStripeEvent(Buffer.from(broken), header(broken), SECRET)).toEqual({
      kind: "refused",
      reason: "not JSON",
    });
    const notEvent = '{"hello": "world"}';
    expect(verifyStripeEvent(Buffer.from(notEvent), header(notEvent), SECRET)).toEqual({
      kind: "refused",
      reason: "not an event",
    });
  });
});

describe("issuing_authorization.request: the engine's decision, once", () => {
  test("approved: the record names Stripe's authorisation, the amount is held", async () => {
    const p = await person();
    const auth = authorization(p.cardRef);
    expect(await request(auth)).toEqual({ kind: "decision", approved: true, stripeVersion: "2025-03-31.basil" });
    const [row, ...others] = await records(auth.id);
    expect(others).toEqual([]);
    expect(row).toMatchObject({
      card_id: p.cardId,
      amount: 1250,
      currency: "EUR",
      merchant_category_code: "5812",
      merchant_name: "Le Petit Café",
      merchant_city: "Lyon",
      entry_mode: "contactless",
      status_name: "pending",
      frozen: 1,
    });
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000 - 1250);
  });

  test("the engine's rules apply: 60 € at a restaurant on a Sunday is declined, and recorded with its figures", async () => {
    const p = await person();
    // Titres-restaurant pay nothing on Sundays, the gift wallet 50 €, no saved card for the rest: the wallets fall
    // short (issue 30 §3), and the figures say it.
    const auth = authorization(p.cardRef, {
      created: Math.floor(SUNDAY.getTime() / 1000),
      pending_request: { amount: 6000, currency: "eur" },
    });
    expect(await request(auth)).toMatchObject({ kind: "decision", approved: false });
    const [row] = await records(auth.id);
    expect(row).toMatchObject({ status_name: "closed", status_reason: "insufficient_funds" });
    expect(readDeclineDetail(row!.decline_detail)).toMatchObject({
      amount: 6000,
      wallets: [
        { name: "Titres-restaurant", canPay: 0, stop: "meal_sunday" },
        { name: "Cadeaux", canPay: 5000, stop: "balance" },
      ],
      overflow: { kind: "none" },
    });
  });

  test("a replayed event answers the same decision and writes nothing again", async () => {
    const p = await person();
    const auth = authorization(p.cardRef);
    const id = next("evt");
    expect(await request(auth, id)).toMatchObject({ approved: true });
    expect(await request(auth, id)).toMatchObject({ approved: true });
    // Another event for the same Stripe authorisation (Stripe asked again): the same decision too.
    expect(await request(auth)).toMatchObject({ approved: true });
    expect(await records(auth.id)).toHaveLength(1);
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000 - 1250);
  });

  test("two simultaneous deliveries of the same event: one decision, one hold", async () => {
    const p = await person();
    const auth = authorization(p.cardRef);
    const id = next("evt");
    const answers = await Promise.all([request(auth, id), request(auth, id), request(auth, id)]);
    expect(answers.map((a) => (a.kind === "decision" ? a.approved : null))).toEqual([true, true, true]);
    expect(await records(auth.id)).toHaveLength(1);
    const events = await handle.db.selectFrom("stripe_webhook_events").selectAll().where("id", "=", id).execute();
    expect(events).toEqual([{ id, type: "issuing_authorization.request", received_at: TUESDAY.toISOString() }]);
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000 - 1250);
  });

  test("a decision that fails is rolled back with its event id: Stripe's retry decides", async () => {
    const p = await person();
    const auth = authorization(p.cardRef);
    const id = next("evt");
    // The decision's own write fails (the database refuses it): a trigger, removed afterwards.
    const failure =
      handle.kind === "postgres"
        ? [
            sql`create function refuse_authorisation() returns trigger language plpgsql as $$ begin
                raise exception 'database unavailable'; end $$`,
            sql`create trigger refuse_authorisation before insert on card_authorizations
                for each row execute function refuse_authorisation()`,
          ]
        : [
            sql`create trigger refuse_authorisation before insert on card_authorizations
                begin select raise(abort, 'database unavailable'); end`,
          ];
    for (const statement of failure) await statement.execute(handle.db);
    try {
      await expect(request(auth, id)).rejects.toThrow("database unavailable");
    } finally {
      await sql`drop trigger refuse_authorisation${sql.raw(handle.kind === "postgres" ? " on card_authorizations" : "")}`.execute(
        handle.db,
      );
      if (handle.kind === "postgres") await sql`drop function refuse_authorisation()`.execute(handle.db);
    }
    expect(await handle.db.selectFrom("stripe_webhook_events").select("id").where("id", "=", id).execute()).toEqual([]);
    expect(await records(auth.id)).toEqual([]);
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000);
    expect(await request(auth, id)).toMatchObject({ approved: true });
    expect(await records(auth.id)).toHaveLength(1);
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000 - 1250);
  });

  test("a time out of range (created 1e20), malformed ids or texts: declined or cleaned, never thrown (issue 28 §3)", async () => {
    const p = await person();
    // Each of these used to throw (an invalid date's toISOString) and answer 500; now a decline, nothing recorded.
    for (const created of [1e20, -1, 1.5, "2026-11-24"]) {
      const auth = authorization(p.cardRef, { created });
      expect(await request(auth), String(created)).toMatchObject({ kind: "decision", approved: false });
      expect(await records(auth.id)).toEqual([]);
    }
    const longId = authorization(p.cardRef, { id: `iauth_${"x".repeat(5000)}` });
    expect(await request(longId)).toMatchObject({ approved: false });
    expect(await records(longId.id)).toEqual([]);
    const foreignShape = authorization(p.cardRef, { card: { id: [p.cardRef] } });
    expect(await request(foreignShape)).toMatchObject({ approved: false });
    // Control characters (PostgreSQL refuses NUL in text) are removed from what is stored.
    const nul = authorization(p.cardRef, {
      merchant_data: { name: "Le Petit\u0000 Café", city: "Ly\u0000on", country: "FR", category_code: "5812" },
    });
    expect(await request(nul)).toMatchObject({ approved: true });
    expect(await records(nul.id)).toMatchObject([{ merchant_name: "Le Petit Café", merchant_city: "Lyon" }]);
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000 - 1250);
  });

  test("an API version that cannot be a header value is answered with the SDK's own", async () => {
    const p = await person();
    const auth = authorization(p.cardRef);
    const parsed = eventOf({
      id: next("evt"),
      object: "event",
      api_version: "2025-03-31\r\nSet-Cookie: hostile=1",
      type: "issuing_authorization.request",
      data: { object: auth },
    })!;
    expect(await handleStripeEvent(deps, parsed, TUESDAY)).toEqual({
      kind: "decision",
      approved: true,
      stripeVersion: Stripe.API_VERSION,
    });
  });

  test("each decision is counted in the metrics by outcome and reason, with its time; a replay apart (decision 0064)", async () => {
    const decisions = async () => {
      const family = (await metricsRegistry().getMetricsAsJSON()).find(
        (m) => m.name === "portal_authorisation_decisions_total",
      );
      return new Map(family!.values.map((v) => [`${v.labels.outcome} ${v.labels.reason}`, v.value]));
    };
    const before = await decisions();
    const p = await person();
    const approved = authorization(p.cardRef);
    const id = next("evt");
    await request(approved, id);
    await request(approved, id);
    await request(authorization(p.cardRef, { pending_request: { amount: 500, currency: "usd" } }));
    await request(authorization("ic_not_ours"));
    await request(authorization(p.cardRef, { pending_request: null }));
    const after = await decisions();
    const added = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
    expect(
      ["approved none", "replayed none", "declined currency_not_supported", "declined unknown_card"].map(added),
    ).toEqual([1, 1, 1, 1]);
    expect(added("declined unreadable_request")).toBe(1);
    expect([...after.keys()].join(" ")).not.toMatch(/ic_|iauth|evt_|card_|usr_|\d{3}/);
  });

  test("a foreign or unknown card, or an unreadable request: declined, nothing recorded", async () => {
    const foreign = authorization("ic_not_ours");
    expect(await request(foreign)).toMatchObject({ approved: false });
    expect(await records(foreign.id)).toEqual([]);
    const p = await person();
    const unreadable = authorization(p.cardRef, { pending_request: null });
    expect(await request(unreadable)).toMatchObject({ approved: false });
    expect(await records(unreadable.id)).toEqual([]);
    // Absurd amounts and currencies are the engine's refusals.
    const absurd = authorization(p.cardRef, { pending_request: { amount: -500, currency: "eur" } });
    expect(await request(absurd)).toMatchObject({ approved: false });
    const dollars = authorization(p.cardRef, { pending_request: { amount: 500, currency: "usd" } });
    expect(await request(dollars)).toMatchObject({ approved: false });
    expect(await records(dollars.id)).toMatchObject([{ status_reason: "currency_not_supported" }]);
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000);
  });
});

describe("issuing_authorization.created / .updated", () => {
  const update = (object: Record<string, unknown>, id?: string) =>
    handleStripeEvent(deps, event("issuing_authorization.updated", object, id), TUESDAY);

  test("created after our approval, still pending: nothing changes", async () => {
    const p = await person();
    const auth = authorization(p.cardRef);
    await request(auth);
    const created = { ...auth, approved: true, amount: 1250, pending_request: null };
    expect(await handleStripeEvent(deps, event("issuing_authorization.created", created), TUESDAY)).toEqual({
      kind: "received",
    });
    expect(await records(auth.id)).toMatchObject([{ status_name: "pending", frozen: 1 }]);
  });

  test("reversed by the merchant: the holds are released, once", async () => {
    const p = await person();
    const auth = authorization(p.cardRef);
    await request(auth);
    const reversed = { ...auth, approved: true, amount: 0, status: "reversed", pending_request: null };
    const id = next("evt");
    await update(reversed, id);
    expect(await records(auth.id)).toMatchObject([{ status_name: "reversed", status_reason: "reversed", frozen: 0 }]);
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000);
    expect(await update(reversed, id)).toEqual({ kind: "received" });
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000);
  });

  test("closed declined after our approval (Stripe turned it down): released; expired: released", async () => {
    const p = await person();
    const declined = authorization(p.cardRef);
    await request(declined);
    await update({ ...declined, approved: false, status: "closed", pending_request: null });
    expect(await records(declined.id)).toMatchObject([{ status_name: "reversed", frozen: 0 }]);
    const expired = authorization(p.cardRef);
    await request(expired);
    await update({ ...expired, approved: true, status: "expired", pending_request: null });
    expect(await records(expired.id)).toMatchObject([{ status_name: "reversed", frozen: 0 }]);
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000);
  });

  test("decided by Stripe without us: a decline is recorded as declined; an approval is held by the engine", async () => {
    const p = await person();
    const declined = authorization(p.cardRef, {
      approved: false,
      status: "closed",
      amount: 900,
      pending_request: null,
    });
    await handleStripeEvent(deps, event("issuing_authorization.created", declined), TUESDAY);
    expect(await records(declined.id)).toMatchObject([
      { card_id: p.cardId, amount: 900, status_name: "closed", status_reason: "declined_by_issuer", frozen: 0 },
    ]);
    const approved = authorization(p.cardRef, { approved: true, amount: 700, pending_request: null });
    await handleStripeEvent(deps, event("issuing_authorization.created", approved), TUESDAY);
    expect(await records(approved.id)).toMatchObject([{ amount: 700, status_name: "pending", frozen: 1 }]);
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000 - 700);
  });

  test("an unknown card: received and logged, nothing written", async () => {
    const foreign = authorization("ic_not_ours", { approved: true });
    expect(await update(foreign)).toEqual({ kind: "received" });
    expect(await records(foreign.id)).toEqual([]);
    expect(lines.some((l) => l.includes("unknown card, ignored"))).toBe(true);
  });

  test("an unreadable or out-of-range object: refused, nothing written, not even the event's id (issue 28 §3)", async () => {
    const p = await person();
    const auth = authorization(p.cardRef);
    await request(auth);
    const reversed = { ...auth, approved: true, status: "reversed", pending_request: null };
    // `created` of 1e20 seconds is no date: it used to throw (RangeError) and answer 500.
    for (const object of [
      { id: 42 },
      { ...reversed, created: 1e20 },
      { ...reversed, created: -1 },
      { ...reversed, approved: "yes" },
      { ...reversed, status: "reversed".repeat(10) },
      { ...reversed, id: `${auth.id}\u0000` },
    ]) {
      const id = next("evt");
      expect(await update(object, id), JSON.stringify(object).slice(0, 80)).toEqual({
        kind: "refused",
        reason: "unreadable object",
      });
      expect(await handle.db.selectFrom("stripe_webhook_events").select("id").where("id", "=", id).execute()).toEqual(
        [],
      );
    }
    expect(await records(auth.id)).toMatchObject([{ status_name: "pending", frozen: 1 }]);
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000 - 1250);
  });
});

describe("issuing_transaction.created", () => {
  const transaction = (fields: Record<string, unknown>, id?: string) =>
    handleStripeEvent(
      deps,
      event("issuing_transaction.created", { id: next("ipi"), object: "issuing.transaction", ...fields }, id),
      TUESDAY,
    );

  test("a capture (negative in Stripe's balance) captures; a refund credits back once per transaction id", async () => {
    const p = await person();
    const auth = authorization(p.cardRef);
    await request(auth);
    const id = next("evt");
    await transaction({ type: "capture", amount: -1250, authorization: auth.id }, id);
    expect(await records(auth.id)).toMatchObject([{ status_name: "closed", has_card_transactions: 1, amount: 1250 }]);
    // Replayed: nothing captured twice.
    await transaction({ type: "capture", amount: -1250, authorization: auth.id }, id);
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000 - 1250);

    const refundId = next("ipi");
    await transaction({ id: refundId, type: "refund", amount: 500, authorization: auth.id });
    // The same Stripe transaction in another event: its id is the refund's reference, applied once.
    await transaction({ id: refundId, type: "refund", amount: 500, authorization: auth.id });
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000 - 750);
    const refunds = await handle.db
      .selectFrom("card_authorization_refunds")
      .select(["reference", "amount"])
      .where("authorization_id", "=", (await records(auth.id))[0]!.id)
      .execute();
    expect(refunds).toEqual([{ reference: refundId, amount: 500 }]);
  });

  test("a refund larger than what is left of the capture: refused with an error logged, nothing credited, every delivery alike", async () => {
    const p = await person();
    const auth = authorization(p.cardRef);
    await request(auth);
    await transaction({ type: "capture", amount: -1250, authorization: auth.id });
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000 - 1250);
    lines.length = 0;
    const id = next("evt");
    const refundId = next("ipi");
    const tooMuch = { id: refundId, type: "refund", amount: 2000, authorization: auth.id };
    expect(await transaction(tooMuch, id)).toEqual({ kind: "refused", reason: "refund larger than the capture" });
    const alert = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.level === "error");
    expect(alert).toMatchObject({ msg: "stripe refund larger than the capture, refused", event: id });
    // Never the amounts nor the card.
    expect(lines.join("\n")).not.toContain("2000");
    expect(lines.join("\n")).not.toContain(p.cardRef);
    // Stripe's retry of the same event is refused again (its id was not kept as applied).
    expect(await transaction(tooMuch, id)).toEqual({ kind: "refused", reason: "refund larger than the capture" });
    expect(await handle.db.selectFrom("stripe_webhook_events").select("id").where("id", "=", id).execute()).toEqual([]);
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000 - 1250);

    // Refunds together: 1 000 then 300 of a 1 250 capture; the second is refused, the first stays credited once.
    const first = next("ipi");
    expect(await transaction({ id: first, type: "refund", amount: 1000, authorization: auth.id })).toEqual({
      kind: "received",
    });
    expect(await transaction({ id: next("ipi"), type: "refund", amount: 300, authorization: auth.id })).toEqual({
      kind: "refused",
      reason: "refund larger than the capture",
    });
    // The refund already applied, sent again with a larger amount: the same refund, nothing more.
    expect(await transaction({ id: first, type: "refund", amount: 5000, authorization: auth.id })).toEqual({
      kind: "received",
    });
    expect(await available(p.userId, "Titres-restaurant")).toBe(10000 - 250);
  });

  test("an amount out of range, a malformed type or authorisation: refused, nothing recorded", async () => {
    const p = await person();
    const auth = authorization(p.cardRef);
    await request(auth);
    for (const fields of [
      { type: "capture", amount: -1e20, authorization: auth.id },
      { type: "capture", amount: -12.5, authorization: auth.id },
      { type: "capture", amount: "-1250", authorization: auth.id },
      { type: "capture", amount: 0, authorization: auth.id },
      { type: "refund", amount: 1e308, authorization: auth.id },
      { type: "dispute", amount: 100, authorization: auth.id },
      { type: "capture", amount: -1250, authorization: { id: ["x"] } },
    ]) {
      const id = next("evt");
      expect(await transaction(fields, id), JSON.stringify(fields)).toEqual({
        kind: "refused",
        reason: "unreadable object",
      });
      expect(await handle.db.selectFrom("stripe_webhook_events").select("id").where("id", "=", id).execute()).toEqual(
        [],
      );
    }
    expect(await records(auth.id)).toMatchObject([{ status_name: "pending", has_card_transactions: 0 }]);
  });

  test("of an authorisation unknown to us, or without one: received and logged, not an error", async () => {
    expect(await transaction({ type: "capture", amount: -100, authorization: "iauth_unknown" })).toEqual({
      kind: "received",
    });
    expect(await transaction({ type: "refund", amount: 100, authorization: null })).toEqual({ kind: "received" });
    expect(lines.some((l) => l.includes("authorisation unknown to us"))).toBe(true);
  });
});

test("any other type is recorded and ignored; its replay too", async () => {
  const id = next("evt");
  expect(await handleStripeEvent(deps, event("issuing_card.updated", { id: "ic_1" }, id), TUESDAY)).toEqual({
    kind: "received",
  });
  expect(await handleStripeEvent(deps, event("issuing_card.updated", { id: "ic_1" }, id), TUESDAY)).toEqual({
    kind: "received",
  });
  const rows = await handle.db.selectFrom("stripe_webhook_events").select(["type"]).where("id", "=", id).execute();
  expect(rows).toEqual([{ type: "issuing_card.updated" }]);
});

test("an event that fails to apply is forgotten, so that Stripe's retry applies it", async () => {
  const failing: WebhookDeps = {
    ...deps,
    db: new Proxy(handle.db, {
      get(target, prop) {
        // The lookup of the record fails (the database went away mid-event).
        if (prop === "selectFrom")
          return () => {
            throw new Error("database unavailable");
          };
        const value = Reflect.get(target, prop) as unknown;
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    }),
  };
  const id = next("evt");
  const reversed = { id: "iauth_x", approved: true, status: "reversed", card: "ic_x" };
  await expect(
    handleStripeEvent(failing, event("issuing_authorization.updated", reversed, id), TUESDAY),
  ).rejects.toThrow("database unavailable");
  expect(await handle.db.selectFrom("stripe_webhook_events").select("id").where("id", "=", id).execute()).toEqual([]);
});
