import { sql, type ExpressionBuilder } from "kysely";
import type { DB } from "../db";
import type { Database } from "../db/schema";
import type { Locale } from "../env";
import { nowIso } from "../ids";
import { findPlaces, greatCircleMeters, type Geodata, type Place } from "../providers/geodata";
import { nameColumn } from "./partners";
import { todayInParis } from "~/domain/dates";
import {
  categoryRule,
  ruleAccepts,
  STORE_MAX_PAGE,
  STORE_PAGE_SIZE,
  type CategoryRule,
  type StoreQuery,
  type StoreRadius,
} from "~/domain/store-locator";

/**
 * The store locator (issue 30 item 6, spec 001 §2.9): the partner shops around a place that accept the
 * signed-in person's wallets, the nearest first. Which wallets a shop accepts is the payment engine's rule for
 * its merchant category (`categoryRule`, the same MCC table as `categoryEligible`): only this person's wallets
 * count, so another person's never widen the list.
 *
 * Cost: the place is found in the offline French dataset (memory); the shops are read from the database by
 * their cached coordinates, inside a box around the place, nearest first, one page at a time (STORE_PAGE_SIZE,
 * at most STORE_MAX_PAGE pages): a search reads at most one page of shops whatever the size of the catalogue.
 * Distances are straight lines between the communes' points of the offline dataset (decision 0028).
 */

/** A wallet of the person's, as a shop lists it. */
export interface ShopWallet {
  id: string;
  name: string;
}

export interface Shop {
  id: string;
  name: string;
  line1: string;
  zipcode: string;
  city: string;
  /** Straight line from the place searched, in metres. */
  distanceMeters: number;
  /** The person's wallets that pay there, in the person's order. */
  wallets: ShopWallet[];
}

export interface StoreSearch {
  query: StoreQuery;
  /** The INSEE code picked among the communes of a name (homonyms), if any. */
  commune?: string;
  radiusKm: StoreRadius;
  page: number;
}

export type StoreSearchResult =
  /** Why the place is not found (a catalogue key), said at the search field. */
  | { kind: "refused"; error: string }
  /** Several communes have this name: the person picks one (its département tells them apart). */
  | { kind: "choose"; places: Place[] }
  /** None of the person's wallets pays at any shop (no wallet, or only types without card rules). */
  | { kind: "noWallet" }
  | {
      kind: "found";
      place: Place;
      /** Searched by postcode ("Lyon 3e Arrondissement (69003)"), else by town ("Lyon (Rhône)"). */
      byPostcode: boolean;
      radiusKm: StoreRadius;
      total: number;
      page: number;
      pageCount: number;
      shops: Shop[];
    };

/** How many partners one search locates at most (each distinct postcode and city once). */
const LOCATE_BATCH = 200;

/** Metres per degree of latitude on the mean Earth radius (greatCircleMeters'). */
const METRES_PER_DEGREE = (2 * Math.PI * 6_371_008.8) / 360;

export async function searchShops(
  db: DB,
  geodata: Geodata,
  userId: string,
  search: StoreSearch,
  options: { now?: Date; locale?: Locale } = {},
): Promise<StoreSearchResult> {
  const now = options.now ?? new Date();
  const place = await placeOf(search);
  if ("kind" in place) return place;

  const day = todayInParis(now);
  const wallets = (
    await db
      .selectFrom("wallets")
      .select(["id", "name", "wallet_type"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .orderBy("name")
      .execute()
  )
    .map((w) => ({ id: w.id, name: w.name, rule: categoryRule(w.wallet_type, day) }))
    .filter((w): w is { id: string; name: string; rule: CardRule } => w.rule !== "none");
  if (wallets.length === 0) return { kind: "noWallet" };

  await locatePartners(db, geodata, now);

  const rules = wallets.map((w) => w.rule);
  const { within, squaredDistance } = around(place.point, search.radiusKm * 1000);
  const inRange = db
    .selectFrom("partners")
    .where("enabled", "=", 1)
    .where((eb) => accepted(eb, rules))
    .where(within);
  const { count } = await inRange
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .executeTakeFirstOrThrow();
  const total = Number(count);
  const pageCount = Math.min(STORE_MAX_PAGE, Math.ceil(total / STORE_PAGE_SIZE));
  const page = Math.max(1, Math.min(search.page, pageCount));
  const rows = await inRange
    .select([
      "id",
      "name_fr",
      "name_en",
      "name_nl",
      "line1",
      "zipcode",
      "city",
      "category_code",
      "latitude",
      "longitude",
    ])
    .orderBy(squaredDistance)
    .orderBy("search_text")
    .orderBy("id")
    .limit(STORE_PAGE_SIZE)
    .offset((page - 1) * STORE_PAGE_SIZE)
    .execute();
  const name = nameColumn(options.locale ?? "fr");
  const shops = rows.map((row) => ({
    id: row.id,
    name: row[name],
    line1: row.line1,
    zipcode: row.zipcode,
    city: row.city,
    distanceMeters: Math.round(greatCircleMeters(place.point, { lat: row.latitude!, lon: row.longitude! })),
    wallets: wallets.filter((w) => ruleAccepts(w.rule, row.category_code!)).map(({ id, name }) => ({ id, name })),
  }));
  const byPostcode = "postcode" in search.query;
  return { kind: "found", place, byPostcode, radiusKm: search.radiusKm, total, page, pageCount, shops };
}

/** The place searched: the commune picked, the only one, or a postcode's most populated; else why not. */
async function placeOf(
  search: StoreSearch,
): Promise<Place | Extract<StoreSearchResult, { kind: "refused" | "choose" }>> {
  const places = await findPlaces(search.query);
  if (places.length === 0) {
    if (!("postcode" in search.query)) return { kind: "refused", error: "storeLocator.errors.unknownTown" };
    const postcodeKnown = search.query.town && (await findPlaces({ postcode: search.query.postcode })).length > 0;
    return { kind: "refused", error: `storeLocator.errors.${postcodeKnown ? "postcodeTown" : "unknownPostcode"}` };
  }
  const picked = places.find((p) => p.code === search.commune);
  if (picked) return picked;
  // A postcode names its communes' area: the most populated stands for it, as for a home address (`locate`).
  if (places.length === 1 || "postcode" in search.query) return places[0]!;
  return { kind: "choose", places };
}

/** The rule of a wallet that pays somewhere by card. */
type CardRule = Exclude<CategoryRule, "none">;

/** Partners a wallet under one of `rules` pays at (a category known). */
function accepted(eb: ExpressionBuilder<Database, "partners">, rules: CardRule[]) {
  return eb.and([
    eb("category_code", "is not", null),
    eb.or(
      rules.map((rule) =>
        "only" in rule ? eb("category_code", "in", [...rule.only]) : eb("category_code", "not in", [...rule.except]),
      ),
    ),
  ]);
}

/**
 * Within `radius` metres of `point`, for the database: a box of latitudes and longitudes (read through an
 * index), then the squared distance on the local flat approximation (exact enough under 100 km), which also
 * orders the shops. The shown distance is the great circle's.
 */
function around(point: { lat: number; lon: number }, radius: number) {
  const dLat = radius / METRES_PER_DEGREE;
  const lonScale = Math.max(Math.cos((point.lat * Math.PI) / 180), 0.01);
  const dLon = dLat / lonScale;
  const ky = METRES_PER_DEGREE ** 2;
  const kx = (METRES_PER_DEGREE * lonScale) ** 2;
  const squaredDistance = sql<number>`(latitude - ${point.lat}) * (latitude - ${point.lat}) * ${ky} + (longitude - ${point.lon}) * (longitude - ${point.lon}) * ${kx}`;
  const within = (eb: ExpressionBuilder<Database, "partners">) =>
    eb.and([
      eb("latitude", ">=", point.lat - dLat),
      eb("latitude", "<=", point.lat + dLat),
      eb("longitude", ">=", point.lon - dLon),
      eb("longitude", "<=", point.lon + dLon),
      eb(squaredDistance, "<=", radius * radius),
    ]);
  return { within, squaredDistance };
}

/**
 * Caches where the partners not located yet are (migration 023): each distinct postcode, city and country
 * located once through the geodata provider, at most LOCATE_BATCH per search, so a new catalogue is located over
 * its first searches. A derived cache written on a read (the only write of a search), the same whoever searches;
 * an address that cannot be located is marked so and not tried again.
 */
export async function locatePartners(db: DB, geodata: Geodata, now = new Date()): Promise<number> {
  const pending = await db
    .selectFrom("partners")
    .select(["zipcode", "city", "country"])
    .where("located_at", "is", null)
    .groupBy(["zipcode", "city", "country"])
    .limit(LOCATE_BATCH)
    .execute();
  for (const address of pending) {
    const found = await geodata.locate({ line1: "", ...address });
    await db
      .updateTable("partners")
      .set({
        latitude: found.kind === "found" ? found.point.lat : null,
        longitude: found.kind === "found" ? found.point.lon : null,
        located_at: nowIso(now),
      })
      .where("located_at", "is", null)
      .where("zipcode", "=", address.zipcode)
      .where("city", "=", address.city)
      .where("country", "=", address.country)
      .execute();
  }
  return pending.length;
}
