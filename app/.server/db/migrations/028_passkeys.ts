import type { Kysely } from "kysely";

/**
 * Passkeys (issue 32, decision 0060). `passkeys`: one row a credential a person registered, with what checking
 * its assertions needs — the public key, the signature counter, the backup flags — and what the settings show
 * (its name, when added and last used); never a private key, no attestation. `passkey_challenges`: the random
 * challenges the server handed out, each single-use, short-lived and bound to the session that asked for it.
 * Both belong to the person: an account removed takes them with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("passkeys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    /** The authenticator's credential id, base64url: how an assertion names its passkey. */
    .addColumn("credential_id", "text", (c) => c.notNull().unique())
    /** The COSE public key, base64url (text on both databases, like every other column). */
    .addColumn("public_key", "text", (c) => c.notNull())
    /** The last signature counter seen; 0 for authenticators that keep none (most synced passkeys). */
    .addColumn("counter", "integer", (c) => c.notNull())
    /** JSON array of the transports the browser reported (`["internal","hybrid"]`), given back as hints. */
    .addColumn("transports", "text", (c) => c.notNull())
    /** 1: backup eligible (a synced, multi-device passkey); fixed at registration. */
    .addColumn("multi_device", "integer", (c) => c.notNull())
    /** 1: backed up at its last use. */
    .addColumn("backed_up", "integer", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text")
    .execute();
  await db.schema.createIndex("passkeys_user_idx").on("passkeys").column("user_id").execute();
  await db.schema
    .createTable("passkey_challenges")
    .addColumn("id", "text", (c) => c.primaryKey())
    /** The random challenge, base64url, as given to the browser. */
    .addColumn("challenge", "text", (c) => c.notNull())
    /** register, signIn, secondFactor, reveal or confirm. */
    .addColumn("purpose", "text", (c) => c.notNull())
    /** The person the ceremony is for; null for a sign-in with a passkey alone (nobody known yet). */
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    /** What a reveal is for (`<cardId>:<details|pin>`); null otherwise. */
    .addColumn("target", "text")
    /** SHA-256 of the opaque binding the session keeps: an answer from another session finds no challenge. */
    .addColumn("binding_hash", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("passkey_challenges_binding_idx")
    .on("passkey_challenges")
    .column("binding_hash")
    .execute();
  await db.schema.createIndex("passkey_challenges_expires_idx").on("passkey_challenges").column("expires_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("passkey_challenges").execute();
  await db.schema.dropTable("passkeys").execute();
}
