import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { FilesystemStorage } from "../../app/.server/providers/file-storage/filesystem";
import { storeReceipt } from "../../app/.server/services/receipts";
import { expect, test } from "./fixtures";

/**
 * A receipt's download through the real server (decision 0025): its owner gets the file as an
 * attachment, never cached; another signed-in user gets the 404 page; nobody signed in is sent to sign
 * in. The receipt is stored as the portal stores it, in the e2e servers' folder (data/files).
 */
test("a receipt is downloaded by its owner only", async ({ page, browser, e2eDatabase, makeAccount, signInAs }) => {
  const owner = await makeAccount({ cards: [{ type: "physical", lastFour: "4242" }] });
  const other = await makeAccount({ cards: [{ type: "physical", lastFour: "4343" }] });
  const bytes = readFileSync(resolve(e2eDatabase.root, "tests/fixtures/receipts/cycles-du-rhone-2026-11-02.pdf"));
  const stored = await storeReceipt(
    { db: e2eDatabase.handle.db, fileStorage: new FilesystemStorage(resolve(e2eDatabase.root, "data/files")) },
    owner.userId,
    new File([bytes], "Facture vélo.pdf", { type: "application/pdf" }),
  );
  if (stored.kind !== "stored") throw new Error(stored.kind);
  const path = `/plans/expense-requests/receipts/${stored.file.id}`;

  await signInAs(page, owner);
  const mine = await page.request.get(path);
  expect(mine.status()).toBe(200);
  expect(Buffer.from(await mine.body()).equals(bytes)).toBe(true);
  expect(mine.headers()["content-type"]).toBe("application/pdf");
  expect(mine.headers()["content-disposition"]).toBe(
    `attachment; filename="Facture velo.pdf"; filename*=UTF-8''Facture%20v%C3%A9lo.pdf`,
  );
  expect(mine.headers()["cache-control"]).toBe("no-store");
  expect(mine.headers()["x-content-type-options"]).toBe("nosniff");

  const otherContext = await browser.newContext();
  const otherPage = await otherContext.newPage();
  await signInAs(otherPage, other);
  const theirs = await otherPage.request.get(path);
  expect(theirs.status()).toBe(404);
  expect(await theirs.text()).not.toContain("%PDF");
  await otherContext.close();

  const anonymous = await browser.newContext();
  const visit = await anonymous.request.get(path, { maxRedirects: 0 });
  expect(visit.status()).toBe(302);
  expect(visit.headers()["location"]).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
  await anonymous.close();
});
