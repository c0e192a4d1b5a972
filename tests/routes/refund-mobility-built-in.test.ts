import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "~/.server/db";
import { buildFile, createAccount, createPartner, type CreatedAccount } from "../../app/.server/db/factories";
import { openTestDatabase } from "../support/test-database";
import { installTestPlatform } from "../support/test-platform";
import { getAccount } from "~/.server/services/accounts";
import { attachReceipt } from "~/.server/services/refunds/drafts";
import { listExpenseTypes, listRefunds } from "~/.server/services/refunds/requests";
import { reviewRefund } from "~/.server/services/refunds/review";
import { SandboxMessenger } from "~/.server/providers/messaging/sandbox";
import { frenchDay, todayInParis } from "~/domain/dates";
import { accountContext } from "~/routes/+shared/auth.server";
import { action } from "~/routes/refunds/wizard";

/**
 * The refund wizard's Mobilité road on a catalogue without a mobility type (spec 001 §2.6, issue 33's audit,
 * decision 0065), its step actions called as React Router calls them: the built-in type chosen (a 500 before:
 * the draft could not store its made-up id), a subtype of the classic road, a receipt, the details, a mobility
 * wallet, the sworn name, sent; then listed and approved by the funder. SQLite, or PostgreSQL with
 * TEST_DATABASE_URL.
 */
let handle: DatabaseHandle;
let alex: CreatedAccount;
let partnerId: string;
const FEATURES = { expenseRequests: { any: true }, allowances: { any: true } };

beforeAll(async () => {
  handle = await openTestDatabase();
  installTestPlatform(handle, "refund-mobility-test-secret-0123456789abcdef");
  // A catalogue of culture and meal (disabled for refunds, spec 001 §2.6): no mobility type.
  const names = (fr: string, nl: string) => ({ name_fr: fr, name_en: fr, name_nl: nl, front_disabled: 0 });
  await handle.db
    .insertInto("expense_types")
    .values([
      { id: "ext_culture", technical_name: "culture", ...names("Culture", "Cultuur"), position: 1 },
      { id: "ext_meal", technical_name: "meal", ...names("Repas", "Maaltijd"), position: 2 },
    ])
    .execute();
  partnerId = (await createPartner(handle.db, { name_fr: "Cycles du Rhône" })).id;
  alex = await createAccount(handle.db, {
    email: "alex@example.com",
    passwordHash: "unused",
    features: FEATURES,
    wallets: [{ name: "Mobilité", type: "mobility", balance: 20_000 }],
  });
});
afterAll(() => handle.close());

type Answer = { status: number; location: string | null; errors?: Record<string, string[] | null> };

function answerOf(result: unknown): Answer {
  if (result instanceof Response)
    return { status: result.status, location: result.headers.get("Location"), errors: undefined };
  const refusal = result as {
    init?: { status?: number } | null;
    data?: { lastResult?: { error?: Record<string, string[] | null> } };
  };
  return { status: refusal.init?.status ?? 200, location: null, errors: refusal.data?.lastResult?.error };
}

/** POSTs this form to a step of the new request's wizard (a draft or none), as the browser does without JavaScript. */
async function post(step: string, draftId: string | null, form: Record<string, string>): Promise<Answer> {
  const search = new URLSearchParams({ ...(draftId ? { draft: draftId } : {}), step });
  const url = `http://localhost/plans/expense-requests/new?${search}`;
  const request = new Request(url, { method: "POST", body: new URLSearchParams(form) });
  const context = new RouterContextProvider();
  context.set(accountContext, (await getAccount(handle.db, alex.userId))!);
  try {
    return answerOf(
      await action({
        request,
        url: new URL(url),
        pattern: "/plans/expense-requests/:requestId",
        params: { requestId: "new" },
        context,
      } as Parameters<typeof action>[0]),
    );
  } catch (thrown) {
    // A redirect or a refusal is thrown as an answer; anything else is the failure it is (a 500 for the browser).
    if (thrown instanceof Error) throw thrown;
    return answerOf(thrown);
  }
}

const stepOf = (answer: Answer) => new URL(answer.location ?? "/", "http://localhost").searchParams;

test("the built-in Mobilité, on a catalogue without it, goes through every step to a request the funder approves", async () => {
  const offered = await listExpenseTypes(handle.db, alex.userId, "fr");
  expect(offered.map((t) => t.name)).toEqual(["Culture", "Mobilité", "Repas"]);
  const mobility = offered.find((t) => t.name === "Mobilité")!;
  const chosen = await post("type", null, { intent: "continue", type_id: mobility.id });
  expect(chosen.status).toBe(302);
  expect(stepOf(chosen).get("step")).toBe("mobility");
  const draftId = stepOf(chosen).get("draft")!;

  const subtype = await post("mobility", draftId, { intent: "continue", subtype: "bicycle_shop" });
  expect(subtype).toMatchObject({ status: 302 });
  expect(stepOf(subtype).get("step")).toBe("ticket");

  // The receipt as the ticket step stores it (its upload and reading are the journey's: refund-wizard.spec.ts).
  const file = buildFile({ user_id: alex.userId });
  await handle.db.insertInto("files").values(file).execute();
  await attachReceipt(handle.db, alex.userId, draftId, file.id);
  expect(stepOf(await post("ticket", draftId, { intent: "continue" })).get("step")).toBe("details");

  const details = {
    intent: "continue",
    partner_id: partnerId,
    ticket_date: frenchDay(todayInParis()),
    amount: "42,50",
  };
  expect(stepOf(await post("details", draftId, details)).get("step")).toBe("methods");
  const methods = {
    intent: "continue",
    "payment_methods[0].wallet_id": alex.wallets["Mobilité"]!,
    "payment_methods[0].amount": "42,50",
    iban_choice: "other",
    iban: "FR76 3000 6000 0112 3456 7890 189",
  };
  expect(stepOf(await post("methods", draftId, methods)).get("step")).toBe("summary");

  // Mobility asks for the sworn name (spec 001 §2.6 "Summary step"): refused without it, sent with it.
  const unsigned = await post("summary", draftId, { intent: "send", sworn_statement: "on" });
  expect(unsigned.status).toBe(400);
  expect(unsigned.errors?.sworn_name).toEqual(["refunds.errors.swornNameRequired"]);
  const sent = await post("summary", draftId, { intent: "send", sworn_statement: "on", sworn_name: "Alex Essai" });
  expect(sent).toMatchObject({ status: 302, location: "/plans/expense-requests" });

  const listed = await listRefunds(handle.db, alex.userId, { tab: "in-progress", page: 1, locale: "fr" });
  expect(listed.items).toHaveLength(1);
  expect(listed.items[0]).toMatchObject({ typeName: "Mobilité", amount: 4250, status: "sent" });
  const review = await reviewRefund(handle.db, new SandboxMessenger(handle.db), listed.items[0]!.id, {
    kind: "approve",
  });
  expect(review.kind).toBe("approved");
});

test("a type not offered, or disabled, is refused on its field and no draft is made", async () => {
  const before = await handle.db.selectFrom("expense_request_drafts").select("id").execute();
  for (const typeId of ["ext_meal", "ext_unknown", "", "x".repeat(500)]) {
    const refused = await post("type", null, { intent: "continue", type_id: typeId });
    expect(refused.status, typeId).toBe(400);
    expect(refused.errors?.type_id, typeId).toEqual(["refunds.errors.typeRequired"]);
  }
  expect(await handle.db.selectFrom("expense_request_drafts").select("id").execute()).toEqual(before);
});
