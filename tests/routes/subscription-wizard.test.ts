import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "~/.server/db";
import type { Platform } from "~/.server/platform";
import type { ReceiptReader } from "~/.server/providers/receipt-reading";
import { createAccount } from "../../app/.server/db/factories";
import { getAccount } from "~/.server/services/accounts";
import { createAllowanceDraft, getAllowanceDraft } from "~/.server/services/allowances/drafts";
import { getPayoutDetails } from "~/.server/services/payout-details";
import { readingsOf, startReadings } from "~/.server/services/receipt-readings";
import { todayInParis } from "~/domain/dates";
import { accountContext } from "~/routes/+shared/auth.server";
import { readProposal } from "~/routes/allowances/subscription.server";
import { action, loader } from "~/routes/allowances/wizard";
import type { SubscriptionStepView, SubscriptionView } from "~/components/allowances/subscription";
import { openDemoDatabase } from "../support/test-database";
import { installTestPlatform } from "../support/test-platform";
import { navigoPass, plainProof } from "../support/text-pdf";

/**
 * The subscription wizard (routes/allowances/wizard.tsx) as React Router calls it, without JavaScript (issue 31
 * §5, §1; decisions 0056, 0054): the documents read by the real reader prefill the price and the period, marked;
 * the step waits while they are read; nothing read prefills nothing; bad documents and forged answers are refused
 * by the server; one person never reaches another's draft or readings; the payout account starts from the profile.
 */
let handle: DatabaseHandle;
let platform: Platform;

beforeAll(async () => {
  ({ handle } = await openDemoDatabase());
  platform = installTestPlatform(handle, "subscription-wizard-test-secret-0123456789abcdef");
}, 30_000);
afterAll(() => handle.close());

const TODAY = todayInParis();
const YEAR = TODAY.slice(0, 4);
const MONTH = TODAY.slice(0, 7);
const LAST_DAY = new Date(Date.UTC(Number(YEAR), Number(TODAY.slice(5, 7)), 0)).toISOString().slice(0, 10);
const french = (day: string) => day.split("-").reverse().join("/");
const IBAN = "FR76 3000 6000 0112 3456 7890 189";

let people = 0;
async function person() {
  people += 1;
  return createAccount(handle.db, {
    email: `subscription-wizard-${people}-${Date.now()}@example.com`,
    passwordHash: "x",
    features: { allowances: { any: true, subscription: true } },
  });
}

async function routeArgs(userId: string, draftId: string, step: string, init?: RequestInit, search = "") {
  const request = new Request(`http://localhost/plans/allowances/new?draft=${draftId}&step=${step}${search}`, init);
  const context = new RouterContextProvider();
  context.set(accountContext, (await getAccount(handle.db, userId))!);
  return {
    request,
    url: new URL(request.url),
    pattern: "/plans/allowances/:requestId",
    params: { requestId: "new" },
    context,
  };
}

/** A post of the step's form: the redirect's place, or the 400 with its errors by field. */
async function post(userId: string, draftId: string, step: string, fields: Record<string, string | Uint8Array>) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields))
    if (typeof value === "string") body.set(name, value);
    else body.set(name, new File([Buffer.from(value)], `${name}.pdf`, { type: "application/pdf" }));
  let result: unknown;
  try {
    result = await action(await routeArgs(userId, draftId, step, { method: "POST", body }));
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) return { status: result.status, location: result.headers.get("Location") ?? "" };
  const refused = result as {
    init?: ResponseInit | null;
    data?: { lastResult?: { error?: Record<string, string[]> } };
  };
  return { status: refused.init?.status ?? 200, errors: refused.data?.lastResult?.error ?? {} };
}

/** What the details step shows (the subscription flow's view of it). */
async function details(userId: string, draftId: string, search = "") {
  const view = (await loader(await routeArgs(userId, draftId, "details", undefined, search))) as SubscriptionView;
  expect(view.step).toBe("details");
  return view.view as Extract<SubscriptionStepView, { step: "details" }>;
}

/** A draft at its tickets step. */
async function atTickets(userId: string) {
  const draft = await createAllowanceDraft(handle.db, userId, "subscription");
  expect((await post(userId, draft.id, "intro", { intent: "continue" })).location).toContain("step=tickets");
  return draft.id;
}

/** Waits until none of the draft's documents is being read (the reader takes a fraction of a second a PDF). */
async function readingsOver(userId: string, draftId: string) {
  const found = await getAllowanceDraft(handle.db, userId, draftId);
  const files =
    found.kind === "found" ? [found.draft.mediaId, found.draft.secondMediaId].filter((f) => f !== null) : [];
  await expect
    .poll(async () => [...(await readingsOf(handle.db, userId, files)).values()].map((r) => r.state), {
      timeout: 20_000,
    })
    .not.toContain("pending");
  return files;
}

test("the pass read prefills the price and the period, marked; what the person types stays theirs; a forged price is refused", async () => {
  const { userId, groupId } = await person();
  const draftId = await atTickets(userId);
  const sent = await post(userId, draftId, "tickets", {
    intent: "upload",
    media: navigoPass(MONTH, "86,40"),
    second_media: plainProof(),
  });
  expect(sent).toMatchObject({ status: 302, location: expect.stringContaining("step=details") });
  await readingsOver(userId, draftId);

  const read = await details(userId, draftId);
  expect(read.reading).toBe("over");
  expect(read.values).toMatchObject({ amount: "86,40", start_at: french(`${MONTH}-01`), ends_at: french(LAST_DAY) });
  expect(read.read).toEqual({ amount: true, start_at: true, ends_at: true });
  // Nothing saved, no IBAN: the person types one, kept in the profile when sent ("save this account" ticked).
  expect(read.savedLastFour).toBeNull();
  expect(read.values).toMatchObject({ iban_choice: "saved", iban: "", save_iban: "on" });

  // What was read is only a proposal: the server checks the price posted like any other.
  const answers = {
    intent: "continue",
    group_id: groupId,
    start_at: read.values.start_at,
    ends_at: read.values.ends_at,
  };
  const forged = await post(userId, draftId, "details", {
    ...answers,
    amount: "999 999,99",
    iban: IBAN,
    save_iban: "on",
  });
  expect(forged).toEqual({ status: 400, errors: { amount: ["allowances.errors.subscriptionAmountTooBig"] } });
  const badIban = await post(userId, draftId, "details", {
    ...answers,
    amount: "86,40",
    iban: IBAN.replace(/9$/, "8"),
  });
  expect(badIban).toEqual({ status: 400, errors: { iban: ["refunds.errors.ibanChecksum"] } });

  // Another price typed: it is the person's, no longer marked; the dates still are.
  const typed = await post(userId, draftId, "details", { ...answers, amount: "90,00", iban: IBAN, save_iban: "on" });
  expect(typed.location).toContain("step=summary");
  const again = await details(userId, draftId);
  expect(again.values.amount).toBe("90,00");
  expect(again.read).toEqual({ amount: false, start_at: true, ends_at: true });

  // Sent: the allowance for the price typed, and the first IBAN kept in the profile (decision 0054).
  expect((await getPayoutDetails(handle.db, userId)).iban).toBeNull();
  const confirmed = await post(userId, draftId, "summary", { intent: "confirm", sworn_statement: "on" });
  expect(confirmed.location).toBe("/plans/allowances?refresh=1");
  const allowance = await handle.db
    .selectFrom("allowances")
    .select(["amount", "start_at", "ends_at", "iban"])
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  expect(allowance).toMatchObject({ start_at: `${MONTH}-01`, ends_at: LAST_DAY, iban: IBAN.replace(/ /g, "") });
  expect((await getPayoutDetails(handle.db, userId)).iban).toBe(IBAN.replace(/ /g, ""));
}, 60_000);

test("while the documents are read the step waits unless skipped; a document that says nothing prefills nothing", async () => {
  const { userId } = await person();
  const draftId = await atTickets(userId);
  const real = platform.receiptReader;
  // A reader that answers only when told: each document waits in `waiting`.
  const waiting: ((text: string) => void)[] = [];
  const held: ReceiptReader = {
    name: "held",
    read: () => new Promise((resolve) => waiting.push((text) => resolve({ kind: "read", text }))),
    close: async () => {},
  };
  platform.receiptReader = held;
  try {
    const sent = await post(userId, draftId, "tickets", { intent: "upload", media: plainProof() });
    expect(sent.location).toContain("step=tickets");
    const both = await post(userId, draftId, "tickets", { intent: "upload", second_media: plainProof() });
    expect(both.location).toContain("step=details");
    expect((await details(userId, draftId)).reading).toBe("pending");
    const skipped = await details(userId, draftId, "&reading=skip");
    expect(skipped.reading).toBe("over");
    expect(skipped.values).toMatchObject({ amount: "", start_at: "", ends_at: "" });
    // The reader gives texts without a price nor a period: nothing proposed, nothing marked, no error.
    await expect.poll(() => waiting.length).toBe(2);
    for (const answer of waiting) answer("Attestation d'abonnement\nTitulaire : Marie Martin");
    await readingsOver(userId, draftId);
  } finally {
    platform.receiptReader = real;
  }
  const over = await details(userId, draftId);
  expect(over.reading).toBe("over");
  expect(over.values).toMatchObject({ amount: "", start_at: "", ends_at: "" });
  expect(over.read).toEqual({ amount: false, start_at: false, ends_at: false });
}, 30_000);

test("bad documents are refused and never read; another person reaches neither the draft nor its readings; new documents drop theirs", async () => {
  const { userId } = await person();
  const stranger = await person();
  const draftId = await atTickets(userId);
  const fake = await post(userId, draftId, "tickets", {
    intent: "upload",
    media: new TextEncoder().encode("not a pdf"),
  });
  expect(fake).toEqual({ status: 400, errors: { media: ["subscriptionWizard.errors.fileInvalidType"] } });
  const rows = () => handle.db.selectFrom("receipt_readings").select("file_id").where("user_id", "=", userId).execute();
  expect(await rows()).toEqual([]);

  await post(userId, draftId, "tickets", {
    intent: "upload",
    media: navigoPass(MONTH, "86,40"),
    second_media: plainProof(),
  });
  const files = await readingsOver(userId, draftId);
  expect(files).toHaveLength(2);
  // Another person: their loader finds no such draft, their readings and their reading of these files nothing.
  await expect(loader(await routeArgs(stranger.userId, draftId, "details"))).rejects.toBeDefined();
  expect((await readingsOf(handle.db, stranger.userId, files)).size).toBe(0);
  await (
    await startReadings(platform, stranger.userId, files)
  ).finished;
  expect(
    await handle.db.selectFrom("receipt_readings").select("file_id").where("user_id", "=", stranger.userId).execute(),
  ).toEqual([]);

  // « Nouveaux justificatifs »: the files go, and their readings with them.
  expect(await rows()).toHaveLength(2);
  expect((await post(userId, draftId, "tickets", { intent: "resetFiles" })).location).toContain("step=tickets");
  expect(await rows()).toEqual([]);
}, 60_000);

test("a saved IBAN is the account paid unless another is chosen, whose checksum is checked", async () => {
  const { userId, groupId } = await person();
  const saved = "FR7630006000011234567890189";
  await handle.db.updateTable("users").set({ payout_iban: saved }).where("id", "=", userId).execute();
  const draftId = await atTickets(userId);
  await post(userId, draftId, "tickets", { intent: "upload", media: plainProof(), second_media: plainProof() });
  await readingsOver(userId, draftId);
  const view = await details(userId, draftId);
  expect(view.savedLastFour).toBe("0189");
  const answers = {
    intent: "continue",
    group_id: groupId,
    start_at: french(`${MONTH}-01`),
    ends_at: french(LAST_DAY),
    amount: "86,40",
  };
  const other = await post(userId, draftId, "details", {
    ...answers,
    iban_choice: "other",
    iban: "FR76 3000 6000 0112 3456 7890 188",
  });
  expect(other).toEqual({ status: 400, errors: { iban: ["refunds.errors.ibanChecksum"] } });
  const forged = await post(userId, draftId, "details", { ...answers, iban_choice: "theirs" });
  expect(forged).toEqual({ status: 400, errors: { iban_choice: ["payoutIban.errors.choice"] } });
  // The saved account, by default: nothing typed.
  expect((await post(userId, draftId, "details", answers)).location).toContain("step=summary");
  const found = await getAllowanceDraft(handle.db, userId, draftId);
  expect(found.kind === "found" && found.draft.answers).toMatchObject({ iban: saved, ibanSource: "saved" });
}, 60_000);

test("what the readings propose: the ticket before the proof, days outside the subscription's window left out", () => {
  const done = (amount: number | null, period: { start: string; end: string } | null) => ({
    state: "done" as const,
    facts: { amount, period },
  });
  const window = { min: "2026-01-01", max: "2026-12-31" };
  expect(readProposal([done(8640, null), done(9000, { start: "2026-11-01", end: "2026-11-30" })], window)).toEqual({
    amount: 8640,
    start: "2026-11-01",
    end: "2026-11-30",
  });
  // An annual pass over two years: its start, not its end (after 31 December); a start before the window: neither.
  expect(readProposal([done(null, { start: "2026-09-01", end: "2027-08-31" })], window)).toEqual({
    amount: null,
    start: "2026-09-01",
    end: null,
  });
  expect(readProposal([done(null, { start: "2025-09-01", end: "2026-08-31" })], window)).toMatchObject({
    start: null,
    end: null,
  });
  expect(readProposal([{ state: "pending" }, { state: "unreadable" }, undefined], window)).toEqual({
    amount: null,
    start: null,
    end: null,
  });
});

test("WCAG 3.3.7: a valid document sent with a refused one is kept in its slot; « Supprimer » empties that slot only, and only the owner's", async () => {
  const { userId } = await person();
  const stranger = await person();
  const draftId = await atTickets(userId);
  const slots = async () => {
    const found = await getAllowanceDraft(handle.db, userId, draftId);
    return found.kind === "found" ? { media: found.draft.mediaId, second: found.draft.secondMediaId } : null;
  };

  const mixed = await post(userId, draftId, "tickets", {
    intent: "upload",
    media: navigoPass(MONTH, "86,40"),
    second_media: new TextEncoder().encode("not a pdf"),
  });
  expect(mixed).toEqual({ status: 400, errors: { second_media: ["subscriptionWizard.errors.fileInvalidType"] } });
  const kept = await slots();
  expect(kept?.media).toEqual(expect.any(String));
  expect(kept?.second).toBeNull();

  // The second file alone then completes the step: the first is not asked for again.
  const completed = await post(userId, draftId, "tickets", { intent: "upload", second_media: plainProof() });
  expect(completed.location).toContain("step=details");
  expect((await slots())?.media).toBe(kept?.media);

  // Another person's « Supprimer » on this draft changes nothing; the owner's empties the named slot only.
  await post(stranger.userId, draftId, "tickets", { intent: "removeFile", slot: "media" });
  expect((await slots())?.media).toBe(kept?.media);
  await post(userId, draftId, "tickets", { intent: "removeFile", slot: "media" });
  const after = await slots();
  expect(after?.media).toBeNull();
  expect(after?.second).toEqual(expect.any(String));
}, 60_000);
