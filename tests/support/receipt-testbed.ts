import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatabaseHandle } from "~/.server/db";
import { createAccount } from "../../app/.server/db/factories";
import { openDemoDatabase } from "./test-database";
import { FilesystemStorage } from "~/.server/providers/file-storage/filesystem";

/**
 * The receipts' service tests' ground (decision 0047): the demo database (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL), a real folder of files, an expense type, and new people on demand.
 */
export interface ReceiptTestbed {
  handle: DatabaseHandle;
  folder: string;
  storage: FilesystemStorage;
  typeId: string;
  /** A new account, its e-mail starting with the testbed's name. */
  person(): ReturnType<typeof createAccount>;
  close(): Promise<void>;
}

export async function openReceiptTestbed(name: string): Promise<ReceiptTestbed> {
  const { handle } = await openDemoDatabase();
  const folder = mkdtempSync(join(tmpdir(), `${name}-`));
  const typeId = (await handle.db.selectFrom("expense_types").select("id").executeTakeFirstOrThrow()).id;
  let people = 0;
  return {
    handle,
    folder,
    storage: new FilesystemStorage(folder),
    typeId,
    person: () => {
      people += 1;
      return createAccount(handle.db, { email: `${name}-${people}-${Date.now()}@example.com`, passwordHash: "x" });
    },
    close: async () => {
      await handle.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
