import type { ClientRateLimitInfo, IncrementResponse, Options, Store } from "express-rate-limit";
import { sql } from "kysely";
import type { DB } from "./index";

/**
 * Counts one hit for the key in a fixed window that starts with its first hit, in one atomic upsert (concurrent
 * hits each see their own total); once the window has passed the count starts again at 1. Also the receipts'
 * per-person upload rate (services/receipts.ts), under keys of its own.
 */
export async function countHit(
  db: DB,
  key: string,
  windowMs: number,
  now = new Date(),
): Promise<{ totalHits: number; resetTime: Date }> {
  const nowIso = now.toISOString();
  const resetAt = new Date(now.getTime() + windowMs).toISOString();
  const row = await db
    .insertInto("rate_limit_hits")
    .values({ key, hits: 1, reset_at: resetAt })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        hits: sql<number>`case when rate_limit_hits.reset_at <= ${nowIso} then 1 else rate_limit_hits.hits + 1 end`,
        reset_at: sql<string>`case when rate_limit_hits.reset_at <= ${nowIso} then cast(${resetAt} as text) else rate_limit_hits.reset_at end`,
      }),
    )
    .returning(["hits", "reset_at"])
    .executeTakeFirstOrThrow();
  return { totalHits: Number(row.hits), resetTime: new Date(row.reset_at) };
}

/**
 * An express-rate-limit store in the database (`rate_limit_hits`), for PostgreSQL deployments where
 * several machines must share the counts (decision 0014). One atomic upsert per request: the count
 * starts again at 1 once its window has passed. Expired rows are deleted once per window.
 */
export class DatabaseRateLimitStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  private windowMs = 60_000;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: DB,
    options: { prefix: string },
  ) {
    this.prefix = `${options.prefix}:`;
  }

  init(options: Pick<Options, "windowMs">): void {
    this.windowMs = options.windowMs;
    clearInterval(this.sweeper);
    this.sweeper = setInterval(() => void this.sweep().catch(() => undefined), this.windowMs);
    this.sweeper.unref();
  }

  async increment(key: string, now = new Date()): Promise<IncrementResponse> {
    return countHit(this.db, this.prefix + key, this.windowMs, now);
  }

  async get(key: string, now = new Date()): Promise<ClientRateLimitInfo | undefined> {
    const row = await this.db
      .selectFrom("rate_limit_hits")
      .select(["hits", "reset_at"])
      .where("key", "=", this.prefix + key)
      .where("reset_at", ">", now.toISOString())
      .executeTakeFirst();
    return row ? { totalHits: Number(row.hits), resetTime: new Date(row.reset_at) } : undefined;
  }

  async decrement(key: string): Promise<void> {
    await this.db
      .updateTable("rate_limit_hits")
      .set({ hits: sql<number>`hits - 1` })
      .where("key", "=", this.prefix + key)
      .where("hits", ">", 0)
      .where("reset_at", ">", new Date().toISOString())
      .execute();
  }

  async resetKey(key: string): Promise<void> {
    await this.db
      .deleteFrom("rate_limit_hits")
      .where("key", "=", this.prefix + key)
      .execute();
  }

  async resetAll(): Promise<void> {
    await this.db.deleteFrom("rate_limit_hits").where("key", "like", `${this.prefix}%`).execute();
  }

  /** Deletes the counts whose window has passed. */
  async sweep(now = new Date()): Promise<void> {
    await this.db.deleteFrom("rate_limit_hits").where("reset_at", "<=", now.toISOString()).execute();
  }

  shutdown(): void {
    clearInterval(this.sweeper);
  }
}
