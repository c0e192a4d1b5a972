import type { DatabaseHandle } from "../index";
import type { Database } from "../schema";
import { BulkWriter } from "./bulk";
import { writeCompany } from "./company";
import { copyHistory } from "./copies";
import { growCard } from "./growth";

/** What a generator added: its run time and the rows it wrote, by table. */
export interface DatasetReport {
  seconds: number;
  rows: Record<string, number>;
}

/**
 * The tables a company's history fills with millions of rows: loaded without their secondary indexes, which are
 * made again afterwards (`BulkWriter.withoutSecondaryIndexes`).
 */
const HISTORY_TABLES: (keyof Database)[] = ["card_authorizations", "wallet_transactions", "notifications"];

export interface CompanyOptions {
  seed: number;
  employees: number;
  months: number;
  now: Date;
  log?: (line: string) => void;
}

/**
 * Adds a funder of `options.employees` employees with `options.months` months of history, never touching
 * the demo's people. Deterministic from `options.seed`.
 */
export async function generateCompany(
  handle: DatabaseHandle,
  options: CompanyOptions,
): Promise<DatasetReport & { funderId: string }> {
  const started = performance.now();
  const writer = new BulkWriter(handle);
  const funderId = await writer.withLargeCache(() =>
    writer.withoutSecondaryIndexes(HISTORY_TABLES, async () => {
      const id = await writeCompany(handle, writer, options);
      await writer.flush();
      return id;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  options.log?.(`generateCompany: ${options.employees} employees, ${options.months} months, ${seconds.toFixed(1)} s`);
  return { seconds, rows: writer.counts, funderId };
}

export interface GrowthOptions {
  userId: string;
  cardId: string;
  payments: number;
  factor: number;
  seed: number;
  now: Date;
  log?: (line: string) => void;
}

/**
 * Gives one card `options.payments` settled past payments before the demo's own, and copies every other
 * row of history `options.factor - 1` more times further back in the past. Deterministic from `options.seed`.
 */
export async function growHistory(handle: DatabaseHandle, options: GrowthOptions): Promise<DatasetReport> {
  const started = performance.now();
  const writer = new BulkWriter(handle);
  // The copies first: they read the history as it was, and nothing the card gains is copied.
  await copyHistory(handle, writer, options);
  await writer.flush();
  options.log?.(`growHistory: history copied ${options.factor - 1} times (${JSON.stringify(writer.counts)})`);
  await growCard(handle, writer, options);
  await writer.flush();
  const seconds = (performance.now() - started) / 1000;
  options.log?.(`growHistory: ${options.payments} payments on the card, ${seconds.toFixed(1)} s`);
  return { seconds, rows: writer.counts };
}
