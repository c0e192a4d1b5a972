import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createAccount, type CreatedAccount } from "../../app/.server/db/factories";
import type { DatabaseHandle } from "~/.server/db";
import { openTestDatabase } from "../support/test-database";
import { installTestPlatform } from "../support/test-platform";
import { getAccount } from "~/.server/services/accounts";
import { createAllowanceDraft, getAllowanceDraft } from "~/.server/services/allowances/drafts";
import { frenchDay, todayInParis } from "~/domain/dates";
import { accountContext } from "~/routes/+shared/auth.server";
import { action } from "~/routes/allowances/wizard";

/**
 * The bicycle wizard's step actions (routes/allowances/distance.server.ts) called as React Router calls them,
 * on a test database with the offline geodata: the account paid from the profile (decision 0054), and a
 * Lyon–Paris commute that cannot be signed without « Je confirme cette distance » and its reason (issue 31 §2,
 * decision 0055), whatever the form posts; nothing is written half-way, and another person's draft is not found.
 */
let handle: DatabaseHandle;
let marie: CreatedAccount;
let other: CreatedAccount;
const SAVED_IBAN = "FR7630006000011234567890189";
const LYON = { "home.line1": "8 rue des Lilas", "home.zipcode": "69003", "home.city": "Lyon", "home.country": "FR" };
const PARIS = {
  "work.line1": "12 rue de la Paix",
  "work.zipcode": "75002",
  "work.city": "Paris",
  "work.country": "FR",
};

beforeAll(async () => {
  handle = await openTestDatabase();
  installTestPlatform(handle, "allowance-distance-test-secret-0123456789");
  const features = { allowances: { any: true, bicycle: true, carpooling: true } };
  marie = await createAccount(handle.db, { email: "marie@example.com", passwordHash: "unused", features });
  other = await createAccount(handle.db, { email: "other@example.com", passwordHash: "unused", features });
  await handle.db.updateTable("users").set({ payout_iban: SAVED_IBAN }).where("id", "=", marie.userId).execute();
});
afterAll(() => handle.close());

/** POSTs this form to a step of a draft, as the browser does without JavaScript, signed in as `who`. */
async function post(who: CreatedAccount, draftId: string, step: string, form: Record<string, string>) {
  const url = `http://localhost/plans/allowances/new?draft=${draftId}&step=${step}`;
  const request = new Request(url, { method: "POST", body: new URLSearchParams(form) });
  const context = new RouterContextProvider();
  context.set(accountContext, (await getAccount(handle.db, who.userId))!);
  try {
    return await action({
      request,
      url: new URL(url),
      pattern: "/plans/allowances/:requestId",
      params: { requestId: "new" },
      context,
    });
  } catch (thrown) {
    return thrown;
  }
}

/** A redirect's status and Location, or a refusal's status and each field's first message. */
function answerOf(result: unknown): { status: number; location?: string | null; errors?: Record<string, string> } {
  if (result instanceof Response) return { status: result.status, location: result.headers.get("Location") };
  const refused = result as {
    init?: ResponseInit | null;
    data?: { lastResult?: { error?: Record<string, string[]> } };
  };
  const error = refused.data?.lastResult?.error ?? {};
  const errors = Object.fromEntries(Object.entries(error).flatMap(([f, m]) => (m?.[0] ? [[f || "form", m[0]]] : [])));
  return { status: refused.init?.status ?? 200, errors };
}

const allowancesOf = (userId: string) =>
  handle.db.selectFrom("allowances").selectAll().where("user_id", "=", userId).execute();

/** A bicycle draft whose details (Lyon home, Paris work, the saved account) led to its summary. */
async function lyonParisAtSummary(): Promise<string> {
  const draft = await createAllowanceDraft(handle.db, marie.userId, "bicycle");
  expect(answerOf(await post(marie, draft.id, "intro", { intent: "continue" })).status).toBe(302);
  const today = todayInParis();
  const details = {
    intent: "continue",
    group_id: marie.groupId,
    ...LYON,
    ...PARIS,
    start_at: frenchDay(`${today.slice(0, 7)}-01`),
    ends_at: frenchDay(today),
    days_at_office: "1",
  };
  expect(answerOf(await post(marie, draft.id, "details", details))).toMatchObject({ status: 302 });
  return draft.id;
}

test("the details without any IBAN field posted pay the profile's account, read again when sent", async () => {
  const draftId = await lyonParisAtSummary();
  const found = await getAllowanceDraft(handle.db, marie.userId, draftId);
  expect(found).toMatchObject({ kind: "found", draft: { answers: { ibanSource: "saved" } } });
  if (found.kind === "found") expect(found.draft.answers.iban).toBeUndefined();
});

test("a forged confirmation without « Je confirme cette distance » is refused on its fields (400), nothing written", async () => {
  const draftId = await lyonParisAtSummary();
  expect(answerOf(await post(marie, draftId, "summary", { intent: "confirm", sworn_statement: "on" }))).toEqual({
    status: 400,
    errors: {
      form: "allowanceWizard.failedCreate",
      distance_confirmed: "allowances.errors.distanceConfirmationRequired",
      distance_reason: "allowances.errors.distanceReasonRequired",
    },
  });
  const reasonOnly = { intent: "confirm", sworn_statement: "on", distance_reason: "Je dors à Paris." };
  expect(answerOf(await post(marie, draftId, "summary", reasonOnly)).errors).toMatchObject({
    distance_confirmed: "allowances.errors.distanceConfirmationRequired",
  });
  expect(await allowancesOf(marie.userId)).toEqual([]);
  expect(await getAllowanceDraft(handle.db, marie.userId, draftId)).toMatchObject({ draft: { submitted: false } });
});

test("a 2,000-character reason is refused with its message, even confirmed; nothing written", async () => {
  const draftId = await lyonParisAtSummary();
  const form = {
    intent: "confirm",
    sworn_statement: "on",
    distance_confirmed: "on",
    distance_reason: "x".repeat(2_000),
  };
  expect(answerOf(await post(marie, draftId, "summary", form))).toEqual({
    status: 400,
    errors: { distance_reason: "allowances.errors.distanceReasonTooLong" },
  });
  expect(await allowancesOf(marie.userId)).toEqual([]);
});

test("another person's draft is not found: nothing is written for either", async () => {
  const draftId = await lyonParisAtSummary();
  const form = {
    intent: "confirm",
    sworn_statement: "on",
    distance_confirmed: "on",
    distance_reason: "Je dors à Paris.",
  };
  const answer = answerOf(await post(other, draftId, "summary", form));
  expect(answer.status).toBe(302);
  expect(answer.location).not.toContain(draftId);
  expect(await allowancesOf(other.userId)).toEqual([]);
  expect(await allowancesOf(marie.userId)).toEqual([]);
});

test("confirmed with its reason, it is signed to the saved account and flagged with the reason", async () => {
  const draftId = await lyonParisAtSummary();
  const form = {
    intent: "confirm",
    sworn_statement: "on",
    distance_confirmed: "on",
    distance_reason: "  Je dors à Paris trois nuits par semaine.  ",
  };
  expect(answerOf(await post(marie, draftId, "summary", form))).toMatchObject({ status: 302 });
  const rows = await allowancesOf(marie.userId);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    type: "bicycle",
    iban: SAVED_IBAN,
    plausibility_flag: 1,
    plausibility_reason: "Je dors à Paris trois nuits par semaine.",
  });
  expect(rows[0]!.distance_estimate_m).toBeGreaterThan(400_000);
});

test("without a saved IBAN, a typed one with « Enregistrer ce compte » joins the profile once the allowance is sent, not before", async () => {
  const features = { allowances: { any: true, bicycle: true } };
  for (const [email, save, saved] of [
    ["first-iban@example.com", "on", SAVED_IBAN],
    ["this-once@example.com", undefined, null],
  ] as const) {
    const someone = await createAccount(handle.db, { email, passwordHash: "unused", features });
    const draft = await createAllowanceDraft(handle.db, someone.userId, "bicycle");
    await post(someone, draft.id, "intro", { intent: "continue" });
    const today = todayInParis();
    const details = {
      intent: "continue",
      group_id: someone.groupId,
      "home.line1": "27 boulevard Voltaire",
      "home.zipcode": "75011",
      "home.city": "Paris",
      "home.country": "FR",
      ...PARIS,
      start_at: frenchDay(`${today.slice(0, 7)}-01`),
      ends_at: frenchDay(today),
      days_at_office: "1",
      iban: "FR76 3000 6000 0112 3456 7890 189",
      ...(save ? { save_iban: save } : {}),
    };
    expect(answerOf(await post(someone, draft.id, "details", details)).status, email).toBe(302);
    const profileIban = async () =>
      (
        await handle.db
          .selectFrom("users")
          .select("payout_iban")
          .where("id", "=", someone.userId)
          .executeTakeFirstOrThrow()
      ).payout_iban;
    expect(await profileIban(), email).toBeNull();
    const confirmed = await post(someone, draft.id, "summary", { intent: "confirm", sworn_statement: "on" });
    expect(answerOf(confirmed).status, email).toBe(302);
    expect(await allowancesOf(someone.userId), email).toHaveLength(1);
    expect(await profileIban(), email).toBe(saved);
  }
});
