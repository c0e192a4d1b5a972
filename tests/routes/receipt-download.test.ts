import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "~/.server/db";
import { openDemoDatabase } from "../support/test-database";
import { getAccount } from "~/.server/services/accounts";
import { storeReceipt } from "~/.server/services/receipts";
import { accountContext } from "~/routes/+shared/auth.server";
import { contentDisposition, loader } from "~/routes/refunds/receipt";
import { installTestPlatform } from "../support/test-platform";

/** The receipt download route's loader as React Router calls it, on the demo database and a real folder. */
const bakery = readFileSync(resolve(__dirname, "../fixtures/receipts/boulangerie-2026-11-14.jpg"));
let handle: DatabaseHandle;
let ids: Record<string, string>;
let fileId: string;

beforeAll(async () => {
  ({ handle, ids } = await openDemoDatabase());
  const { fileStorage } = installTestPlatform(handle, "receipt-download-test-secret-0123456789");
  const stored = await storeReceipt(
    { db: handle.db, fileStorage },
    ids.marie!,
    new File([bakery], "Ticket « boulangerie » 14-11.jpeg", { type: "image/jpeg" }),
  );
  if (stored.kind !== "stored") throw new Error(stored.kind);
  fileId = stored.file.id;
}, 30_000);
afterAll(async () => {
  await handle.close();
});

async function download(userId: string, id: string): Promise<Response> {
  const url = `http://localhost/plans/expense-requests/receipts/${id}`;
  const context = new RouterContextProvider();
  context.set(accountContext, (await getAccount(handle.db, userId))!);
  try {
    return await loader({
      request: new Request(url),
      url: new URL(url),
      pattern: "/plans/expense-requests/receipts/:fileId",
      params: { fileId: id },
      context,
    });
  } catch (thrown) {
    const refusal = thrown as { init?: ResponseInit | null };
    return new Response(null, { status: refusal.init?.status ?? 500 });
  }
}

test("its owner downloads the receipt: the bytes, the sniffed type, an attachment with a safe name, never cached (the server adds nosniff: tests/e2e/receipt-download.spec.ts)", async () => {
  const res = await download(ids.marie!, fileId);
  expect(res.status).toBe(200);
  expect(Buffer.from(await res.arrayBuffer()).equals(bakery)).toBe(true);
  expect(res.headers.get("Content-Type")).toBe("image/jpeg");
  expect(res.headers.get("Content-Length")).toBe(String(bakery.length));
  expect(res.headers.get("Cache-Control")).toBe("no-store");
  expect(res.headers.get("Content-Disposition")).toBe(
    `attachment; filename="Ticket _ boulangerie _ 14-11.jpg"; filename*=UTF-8''Ticket%20%C2%AB%20boulangerie%20%C2%BB%2014-11.jpg`,
  );
});

test("another user, or an id that names nothing: 404 alike", async () => {
  expect((await download(ids.paul!, fileId)).status).toBe(404);
  expect((await download(ids.marie!, "file_doesnotexist")).status).toBe(404);
  expect((await download(ids.marie!, "../../etc/passwd")).status).toBe(404);
});

test("a name cannot break out of the header", () => {
  const header = contentDisposition('a";\r\nSet-Cookie: x=1.pdf');
  expect(header).not.toMatch(/[\r\n]/);
  expect(header.split('"').length).toBe(3);
});
