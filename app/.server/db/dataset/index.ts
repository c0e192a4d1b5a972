import type { DatabaseHandle } from "../index";

/** What a generator added: its run time and the rows it wrote, by table. */
export interface DatasetReport {
  seconds: number;
  rows: Record<string, number>;
}

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
export function generateCompany(
  handle: DatabaseHandle,
  options: CompanyOptions,
): Promise<DatasetReport & { funderId: string }> {
  void handle;
  void options;
  return Promise.reject(new Error("not yet"));
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
export function growHistory(handle: DatabaseHandle, options: GrowthOptions): Promise<DatasetReport> {
  void handle;
  void options;
  return Promise.reject(new Error("not yet"));
}
