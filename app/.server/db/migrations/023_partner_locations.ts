import type { Kysely } from "kysely";

/**
 * The store locator (issue 30 item 6, spec 001 §2.9): what a partner sells and where it is.
 * - `category_code`: the shop's ISO 18245 merchant category code, as its card payments carry it; the wallets
 *   a shop accepts are the ones the payment engine lets pay at this category (`categoryEligible`). Null: not
 *   known yet, and the shop is not listed.
 * - `latitude`, `longitude`, `located_at`: where the geodata provider places the shop's postcode and city,
 *   kept so that a search asks the database for the shops around a place (a box, then the nearest first)
 *   instead of locating every partner. `located_at` is when it was located (null: not yet); a shop whose
 *   address could not be located keeps null coordinates and is not listed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("partners").addColumn("category_code", "text").execute();
  await db.schema.alterTable("partners").addColumn("latitude", "double precision").execute();
  await db.schema.alterTable("partners").addColumn("longitude", "double precision").execute();
  await db.schema.alterTable("partners").addColumn("located_at", "text").execute();
  /** The search reads the shops within a band of latitudes; the shops still to locate are found by this one. */
  await db.schema.createIndex("partners_by_latitude").on("partners").columns(["latitude", "longitude"]).execute();
  await db.schema.createIndex("partners_to_locate").on("partners").column("located_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("partners_to_locate").execute();
  await db.schema.dropIndex("partners_by_latitude").execute();
  for (const column of ["located_at", "longitude", "latitude", "category_code"])
    await db.schema.alterTable("partners").dropColumn(column).execute();
}
