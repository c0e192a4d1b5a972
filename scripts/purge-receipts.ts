/**
 * The daily job of issue 28 §2 (decision 0047): refund and allowance drafts untouched for 7 days are dropped, the
 * receipts nothing holds any more (those drafts' files, an upload interrupted before its draft took it) are deleted
 * an hour after they were stored, rows and bytes, and bytes no row names (a write cut short) an hour after they were
 * written; the per-person upload counts whose hour has passed are forgotten. A file on a draft still alive, or on a
 * request or an allowance, whatever its status, is never removed. Run it once a day (cron, a scheduler), from one
 * machine:
 *   npm run receipts:purge
 * Idempotent. Uses DATABASE_URL and FILE_STORAGE (with its folder or bucket) like the server.
 */
import { openCommandDatabase } from "./command-database";
import { createFileStorage } from "../app/.server/providers/file-storage";
import { purgeReceipts } from "../app/.server/services/receipt-clean-up";

async function main() {
  const { env, handle } = await openCommandDatabase();
  try {
    const report = await purgeReceipts({ db: handle.db, fileStorage: createFileStorage(env) });
    const megabytes = (report.bytes / 1_000_000).toLocaleString("fr-FR", { maximumFractionDigits: 1 });
    console.log(
      `drafts dropped: ${report.drafts}; receipts deleted: ${report.files} (${megabytes} MB); ` +
        `stored objects without a row deleted: ${report.orphans}`,
    );
  } finally {
    await handle.close();
  }
}

void main();
