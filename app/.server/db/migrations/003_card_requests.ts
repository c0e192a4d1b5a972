import type { Kysely } from "kysely";

/**
 * Card creation (spec 000 §2 "Create card"): each wizard run is a card request kept on the server,
 * so the steps can live in the URL and a replayed submit is recognised. The issuer's cardholder
 * reference is kept on the user, so later cards go to the same cardholder. The sandbox issuer
 * notes when each new card becomes visible (it takes a few seconds, like a real issuer).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("issuer_cardholder_ref", "text").execute();

  await db.schema
    .createTable("card_requests")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("group_id", "text", (c) => c.notNull().references("groups.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    /** draft → submitted (licence taken, issuer asked) → issued (card made); back to draft if the issuer refuses. */
    .addColumn("status", "text", (c) => c.notNull().defaultTo("draft"))
    /** The chosen PIN encrypted with the issuer's public key: the portal cannot read it back. */
    .addColumn("pin_ciphertext", "text")
    .addColumn("line1", "text")
    .addColumn("line2", "text")
    .addColumn("zipcode", "text")
    .addColumn("city", "text")
    .addColumn("country", "text")
    /** Counts refused submissions, so each retry reaches the issuer with a fresh idempotency key. */
    .addColumn("attempt", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("licence_id", "text", (c) => c.references("licences.id").onDelete("set null"))
    .addColumn("issuer_ref", "text")
    .addColumn("card_id", "text", (c) => c.references("cards.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("submitted_at", "text")
    .execute();
  await db.schema.createIndex("card_requests_user_idx").on("card_requests").columns(["user_id", "status"]).execute();

  await db.schema.alterTable("sandbox_issuer_cards").addColumn("visible_at", "text").execute();
  await db.schema.alterTable("sandbox_issuer_cards").addColumn("request_key", "text").execute();
  await db.schema
    .createIndex("sandbox_issuer_cards_request_idx")
    .on("sandbox_issuer_cards")
    .column("request_key")
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("sandbox_issuer_cards_request_idx").ifExists().execute();
  await db.schema.alterTable("sandbox_issuer_cards").dropColumn("request_key").execute();
  await db.schema.alterTable("sandbox_issuer_cards").dropColumn("visible_at").execute();
  await db.schema.dropTable("card_requests").ifExists().execute();
  await db.schema.alterTable("users").dropColumn("issuer_cardholder_ref").execute();
}
