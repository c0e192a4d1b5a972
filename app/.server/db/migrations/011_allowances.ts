import { sql, type Kysely } from "kysely";

/**
 * Mobility allowances (issue 15, spec 001 §2.7, §3, §5): each funder's mobility policy, the figures of
 * the simulation kept with the allowance (so an auditor sees how the amount was reached), the monthly
 * payouts of an approved allowance, and the wizard's answers kept on the server between steps.
 *
 * `allowances.status` becomes sent | approved | paid | refused | cancelled (seeded `in_progress` → sent,
 * `finished` → paid). Amounts are integer cents; distances integer metres; dates YYYY-MM-DD.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  /** The funder's policy: euro cents per kilometre (bicycle and carpooling), yearly cap, transport share. */
  await db.schema
    .alterTable("groups")
    .addColumn("mobility_rate_per_km", "integer", (c) => c.notNull().defaultTo(25))
    .execute();
  /** The yearly *forfait mobilités durables* cap this funder pays, at most the legal 600 € (60000). */
  await db.schema
    .alterTable("groups")
    .addColumn("mobility_yearly_cap", "integer", (c) => c.notNull().defaultTo(60000))
    .execute();
  /** The share of a public-transport subscription the funder pays, in percent (50 by law, up to 75). */
  await db.schema
    .alterTable("groups")
    .addColumn("subscription_share_percent", "integer", (c) => c.notNull().defaultTo(50))
    .execute();

  const columns: [string, "text" | "integer"][] = [
    /** The full IBAN the payouts go to (shown masked). */
    ["iban", "text"],
    ["monthly_amount", "integer"],
    ["number_of_months", "integer"],
    /** Carpooling and bicycle: the policy's rate when simulated (cents per km). */
    ["rate_per_km", "integer"],
    /** One-way distance from the geodata provider, and the one the employee declared instead (if any). */
    ["distance_estimate_m", "integer"],
    ["distance_declared_m", "integer"],
    /** estimate (straight line × road factor) or routing (a routing service). */
    ["distance_source", "text"],
    /** The simulated amount before the yearly cap, and what was left of the cap before this allowance. */
    ["amount_before_cap", "integer"],
    ["cap_remaining_before", "integer"],
    /** Subscription: the price of the subscription and the share paid (percent). */
    ["subscription_amount", "integer"],
    ["percentage", "integer"],
    ["media_id", "text"],
    ["second_media_id", "text"],
    ["signed_at", "text"],
    ["refusal_reason", "text"],
    ["decided_at", "text"],
    ["updated_at", "text"],
    /** The draft that created it: a replayed or concurrent confirmation finds it taken. */
    ["draft_id", "text"],
  ];
  for (const [name, type] of columns) {
    await db.schema
      .alterTable("allowances")
      .addColumn(name, type, (c) => (name === "media_id" || name === "second_media_id" ? c.references("files.id") : c))
      .execute();
  }
  await db.schema.createIndex("allowances_draft_idx").on("allowances").column("draft_id").unique().execute();
  await db.schema.createIndex("allowances_user_idx").on("allowances").columns(["user_id", "start_at"]).execute();
  await sql`update allowances set status = case when status = 'in_progress' then 'sent' else 'paid' end`.execute(db);

  /** One payout per month of an approved allowance's period, to its IBAN. */
  await db.schema
    .createTable("allowance_payouts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("allowance_id", "text", (c) => c.notNull().references("allowances.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    /** The month paid for, YYYY-MM. */
    .addColumn("month", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("iban", "text", (c) => c.notNull())
    .addColumn("scheduled_for", "text", (c) => c.notNull())
    /** scheduled, paid or cancelled */
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("paid_at", "text")
    .addUniqueConstraint("allowance_payouts_month_unique", ["allowance_id", "month"])
    .execute();
  await db.schema
    .createIndex("allowance_payouts_due_idx")
    .on("allowance_payouts")
    .columns(["status", "scheduled_for"])
    .execute();

  /** The wizard's answers between steps (the URL carries the draft id and the step). */
  await db.schema
    .createTable("allowance_drafts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    /** carpooling, bicycle or subscription */
    .addColumn("type", "text", (c) => c.notNull())
    /** JSON of AllowanceAnswers (services/allowances/drafts.ts). */
    .addColumn("answers", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("media_id", "text", (c) => c.references("files.id"))
    .addColumn("second_media_id", "text", (c) => c.references("files.id"))
    /** The furthest step reached (0 = the intro), for the close confirmation. */
    .addColumn("step_reached", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    /** Set once, by the confirmation that wins. */
    .addColumn("submitted_at", "text")
    .addColumn("allowance_id", "text", (c) => c.references("allowances.id").onDelete("set null"))
    .execute();
  await db.schema.createIndex("allowance_drafts_user_idx").on("allowance_drafts").columns(["user_id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("allowance_drafts").execute();
  await db.schema.dropTable("allowance_payouts").execute();
  await db.schema.dropIndex("allowances_user_idx").execute();
  await db.schema.dropIndex("allowances_draft_idx").execute();
  await sql`update allowances set status = case when status in ('sent', 'approved') then 'in_progress' else 'finished' end`.execute(
    db,
  );
  for (const column of [
    "draft_id",
    "updated_at",
    "decided_at",
    "refusal_reason",
    "signed_at",
    "second_media_id",
    "media_id",
    "percentage",
    "subscription_amount",
    "cap_remaining_before",
    "amount_before_cap",
    "distance_source",
    "distance_declared_m",
    "distance_estimate_m",
    "rate_per_km",
    "number_of_months",
    "monthly_amount",
    "iban",
  ]) {
    await db.schema.alterTable("allowances").dropColumn(column).execute();
  }
  for (const column of ["subscription_share_percent", "mobility_yearly_cap", "mobility_rate_per_km"]) {
    await db.schema.alterTable("groups").dropColumn(column).execute();
  }
}
