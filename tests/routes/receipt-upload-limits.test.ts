import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "~/.server/db";
import { createAccount } from "../../app/.server/db/factories";
import { openDemoDatabase } from "../support/test-database";
import { parseEnv } from "~/.server/env";
import { getAccount } from "~/.server/services/accounts";
import { createDraft } from "~/.server/services/refunds/drafts";
import { accountContext } from "~/routes/+shared/auth.server";
import { action } from "~/routes/refunds/wizard";
import { installTestPlatform } from "../support/test-platform";

/**
 * The refund wizard's upload (routes/refunds/wizard.tsx) as React Router calls it, without
 * JavaScript: beyond the person's receipt ceiling or upload rate (decision 0047) the ticket step answers 400 with
 * the French refusal on the file field, through the form contract (decision 0021).
 */
const fr = JSON.parse(readFileSync(resolve(__dirname, "../../locales/fr/translation.json"), "utf8")) as {
  refundWizard: { errors: Record<string, string> };
};
let handle: DatabaseHandle;
let ids: Record<string, string>;

beforeAll(async () => {
  ({ handle, ids } = await openDemoDatabase());
  const platform = installTestPlatform(handle, "receipt-limits-test-secret-0123456789abcdef");
  platform.env = parseEnv({
    SESSION_SECRET: "receipt-limits-test-secret-0123456789abcdef",
    LOG_LEVEL: "silent",
    RECEIPT_QUOTA_MB: "1",
    RECEIPT_UPLOADS_PER_HOUR: "3",
  });
}, 30_000);
afterAll(() => handle.close());

/** A whole PDF of `size` bytes. */
const pdf = (size: number, fill: string) =>
  new File(["%PDF-1.4\n%" + fill.repeat(size - 17) + "\n%%EOF\n"], "ticket.pdf", { type: "application/pdf" });

async function upload(userId: string, draftId: string, file: File) {
  const body = new FormData();
  body.set("intent", "upload");
  body.set("receipt", file);
  const request = new Request(`http://localhost/plans/expense-requests/new?step=ticket&draft=${draftId}`, {
    method: "POST",
    body,
  });
  const context = new RouterContextProvider();
  context.set(accountContext, (await getAccount(handle.db, userId))!);
  const result: unknown = await action({
    request,
    url: new URL(request.url),
    pattern: "/plans/expense-requests/:requestId",
    params: { requestId: "new" },
    context,
  });
  if (result instanceof Response) return { status: result.status, error: undefined };
  const refused = result as {
    init?: ResponseInit | null;
    data?: { lastResult?: { error?: Record<string, string[] | null> } };
  };
  return { status: refused.init?.status ?? 200, error: refused.data?.lastResult?.error?.receipt?.[0] };
}

test("beyond the bytes a person's drafts may hold: 400, the French refusal on the file, nothing attached", async () => {
  const first = await createDraft(handle.db, ids.marie!);
  expect(await upload(ids.marie!, first.id, pdf(600_000, "a"))).toMatchObject({ status: 302 });
  const second = await createDraft(handle.db, ids.marie!);
  const refused = await upload(ids.marie!, second.id, pdf(600_000, "b"));
  expect(refused).toEqual({ status: 400, error: "refundWizard.errors.uploadQuotaExceeded" });
  expect(fr.refundWizard.errors.uploadQuotaExceeded).toMatch(/^Vous avez atteint la place réservée aux justificatifs/);
  const draft = await handle.db
    .selectFrom("expense_request_drafts")
    .select("media_id")
    .where("id", "=", second.id)
    .executeTakeFirstOrThrow();
  expect(draft.media_id).toBeNull();
});

test("beyond the uploads an hour: 400, the French refusal on the file", async () => {
  // A newcomer's count is their own (marie's uploads above do not count): three small uploads pass, the fourth is refused.
  const { userId } = await createAccount(handle.db, {
    email: "uploads@example.com",
    passwordHash: "unused",
    features: { expenseRequests: { any: true } },
  });
  const draft = await createDraft(handle.db, userId);
  const small = (i: number) => pdf(1000, String(i));
  expect((await upload(userId, draft.id, small(1))).status).toBe(302);
  expect((await upload(userId, draft.id, small(2))).status).toBe(302);
  // The draft is full (2 receipts): the third goes on another draft.
  const other = await createDraft(handle.db, userId);
  expect((await upload(userId, other.id, small(3))).status).toBe(302);
  expect(await upload(userId, other.id, small(4))).toEqual({
    status: 400,
    error: "refundWizard.errors.uploadRateExceeded",
  });
  expect(fr.refundWizard.errors.uploadRateExceeded).toBe(
    "Trop de fichiers envoyés en une heure : réessayez un peu plus tard.",
  );
});
