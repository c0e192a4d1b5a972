import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { createAccount, createPartner } from "../db/factories";
import { openTestDatabase } from "../../../tests/support/test-database";
import { createOfflineGeodata } from "../providers/geodata/offline";
import { frenchDataset } from "../providers/geodata/dataset";
import { locatePartners, searchShops, type StoreSearch, type StoreSearchResult } from "./store-locator";
import { STORE_PAGE_SIZE, type StoreQuery } from "~/domain/store-locator";

/**
 * The store locator's search (issue 30 item 6) on a real database and the real offline dataset: the shops
 * accepting the person's own wallets, nearest first, and every way a search can fail to name a place.
 */
let handle: DatabaseHandle;
const geodata = createOfflineGeodata({ roadFactor: 1 });
const users: Record<string, string> = {};
const wallets: Record<string, string> = {};
/** A day when groceries still count for meal vouchers does not matter here: no supermarket is listed. */
const now = new Date("2026-11-25T10:00:00Z");

beforeAll(async () => {
  handle = await openTestDatabase();
  await frenchDataset();
  const db = handle.db;
  const shop = (name_fr: string, zipcode: string, city: string, category_code: string | null, extra = {}) =>
    createPartner(db, { name_fr, line1: `1 rue ${name_fr}`, zipcode, city, category_code, ...extra });
  await shop("Bistrot Part-Dieu", "69003", "Lyon", "5812");
  await shop("Boulangerie Guillotière", "69007", "Lyon", "5462");
  await shop("Comptoir Jacobins", "69002", "Lyon", "5812", { name_en: "Jacobins Counter" });
  await shop("Librairie Croix-Rousse", "69004", "Lyon", "5942");
  await shop("Cinéma Vaulx", "69120", "Vaulx-en-Velin", "7832");
  await shop("Station Vaulx", "69120", "Vaulx-en-Velin", "5541");
  await shop("Brasserie du Marais", "75004", "Paris", "5812");
  await shop("Restaurant fermé", "69003", "Lyon", "5812", { disabled_reason: "Fermé." });
  await shop("Catégorie inconnue", "69003", "Lyon", null);
  await shop("Adresse introuvable", "00000", "Nulle-Part", "5812");
  await shop("Fleuriste Saint-Denis", "93200", "Saint-Denis", "5992");
  const account = async (name: string, walletSpecs: { name: string; type: string }[]) => {
    const created = await createAccount(db, {
      email: `${name}@example.com`,
      passwordHash: "x",
      wallets: walletSpecs.map((w) => ({ ...w, balance: 10_00 })),
    });
    users[name] = created.userId;
    Object.assign(wallets, created.wallets);
  };
  await account("meal", [{ name: "Titres-restaurant", type: "meal" }]);
  await account("culture", [{ name: "Culture", type: "culture" }]);
  await account("gift", [{ name: "Cadeaux", type: "gift" }]);
  await account("both", [
    { name: "Repas", type: "meal" },
    { name: "Sorties", type: "culture" },
  ]);
  await account("sport", [{ name: "Sport", type: "sport" }]);
  await account("none", []);
}, 60_000);
afterAll(() => handle.close());

const search = (user: string, query: StoreQuery, more: Partial<StoreSearch> = {}) =>
  searchShops(handle.db, geodata, users[user]!, { query, radiusKm: 10, page: 1, ...more }, { now });

function found(result: StoreSearchResult) {
  if (result.kind !== "found") throw new Error(`expected shops, got ${result.kind}`);
  return result;
}

describe("shops around a postcode, nearest first", () => {
  test("a meal wallet lists the restaurants and bakeries within 10 km, by distance, with the wallets they take", async () => {
    const result = found(await search("meal", { postcode: "69003" }));
    expect(result.place).toMatchObject({ code: "69383", name: "Lyon 3e Arrondissement", postcode: "69003" });
    expect(result.shops.map((s) => s.name)).toEqual([
      "Bistrot Part-Dieu",
      "Comptoir Jacobins",
      "Boulangerie Guillotière",
    ]);
    const distances = result.shops.map((s) => s.distanceMeters);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(distances[0]).toBe(0);
    // Lyon 3e → Lyon 2e: about 2 km between the arrondissements' points.
    expect(distances[1]).toBeGreaterThan(1_000);
    expect(distances[1]).toBeLessThan(3_000);
    expect(result.shops[0]!.wallets).toEqual([{ id: wallets["Titres-restaurant"], name: "Titres-restaurant" }]);
    expect(result).toMatchObject({ total: 3, page: 1, pageCount: 1 });
  });

  test("a disabled shop, one of unknown category and one that cannot be located are never listed", async () => {
    const names = found(await search("gift", { postcode: "69003" }, { radiusKm: 100 })).shops.map((s) => s.name);
    expect(names).not.toContain("Restaurant fermé");
    expect(names).not.toContain("Catégorie inconnue");
    expect(names).not.toContain("Adresse introuvable");
    const unlocated = await handle.db
      .selectFrom("partners")
      .select(["latitude", "located_at"])
      .where("name_fr", "=", "Adresse introuvable")
      .executeTakeFirstOrThrow();
    expect(unlocated.latitude).toBeNull();
    expect(unlocated.located_at).not.toBeNull();
  });

  test("the radius bounds the search: Vaulx-en-Velin is beyond 2 km of Lyon 3e, within 10 km", async () => {
    expect(found(await search("culture", { postcode: "69003" }, { radiusKm: 2 })).shops.map((s) => s.name)).toEqual([]);
    expect(found(await search("culture", { postcode: "69003" })).shops.map((s) => s.name)).toEqual([
      "Librairie Croix-Rousse",
      "Cinéma Vaulx",
    ]);
  });

  test("a town's name searches around it; the names follow the person's language", async () => {
    const result = found(await search("meal", { town: "paris" }, { radiusKm: 10 }));
    expect(result.place.code).toBe("75056");
    expect(result.shops.map((s) => s.name)).toEqual(["Brasserie du Marais"]);
    const english = await searchShops(
      handle.db,
      geodata,
      users.meal!,
      { query: { postcode: "69002" }, radiusKm: 2, page: 1 },
      { now, locale: "en" },
    );
    expect(found(english).shops[0]!.name).toBe("Jacobins Counter");
  });

  test("a postcode and its town pick that commune; a town not of that postcode is refused", async () => {
    expect(found(await search("meal", { postcode: "69120", town: "Vaulx en Velin" })).place.code).toBe("69256");
    expect(await search("meal", { postcode: "69003", town: "Marseille" })).toEqual({
      kind: "refused",
      error: "storeLocator.errors.postcodeTown",
    });
  });
});

describe("only the signed-in person's wallets count", () => {
  test("each person sees the shops of their own wallets' types, never another's", async () => {
    const names = async (user: string) =>
      found(await search(user, { postcode: "69003" }))
        .shops.map((s) => s.name)
        .sort();
    expect(await names("meal")).toEqual(["Bistrot Part-Dieu", "Boulangerie Guillotière", "Comptoir Jacobins"]);
    expect(await names("culture")).toEqual(["Cinéma Vaulx", "Librairie Croix-Rousse"]);
    // Gifts pay anywhere but at fuel stations (and cash).
    expect(await names("gift")).not.toContain("Station Vaulx");
    expect(await names("gift")).toContain("Cinéma Vaulx");
  });

  test("a shop lists which of the person's wallets pay there", async () => {
    const shops = found(await search("both", { postcode: "69003" })).shops;
    expect(shops.find((s) => s.name === "Bistrot Part-Dieu")!.wallets.map((w) => w.name)).toEqual(["Repas"]);
    expect(shops.find((s) => s.name === "Cinéma Vaulx")!.wallets.map((w) => w.name)).toEqual(["Sorties"]);
    for (const shop of shops) for (const w of shop.wallets) expect([wallets.Repas, wallets.Sorties]).toContain(w.id);
  });

  test("no wallet, or only wallets without card rules, is said as such", async () => {
    expect(await search("none", { postcode: "69003" })).toEqual({ kind: "noWallet" });
    expect(await search("sport", { postcode: "69003" })).toEqual({ kind: "noWallet" });
  });
});

describe("places that are not one", () => {
  test("homonyms ask which one, by département; the pick is kept only among them", async () => {
    const result = await search("gift", { town: "Saint-Denis" });
    expect(result.kind).toBe("choose");
    if (result.kind !== "choose") return;
    expect(result.places.map((p) => p.department.code)).toEqual(expect.arrayContaining(["93", "974", "11", "30"]));
    expect(result.places.find((p) => p.department.code === "93")).toMatchObject({
      code: "93066",
      department: { name: "Seine-Saint-Denis" },
    });
    const picked = found(await search("gift", { town: "Saint-Denis" }, { commune: "93066" }));
    expect(picked.place.code).toBe("93066");
    // Paris 4e is some 8 km away.
    expect(picked.shops.map((s) => s.name)).toEqual(["Fleuriste Saint-Denis", "Brasserie du Marais"]);
    // A commune that is not one of the name's: asked again.
    expect((await search("gift", { town: "Saint-Denis" }, { commune: "69123" })).kind).toBe("choose");
    // "St Denis" is the same name.
    expect((await search("gift", { town: "St Denis" })).kind).toBe("choose");
  });

  test("unknown postcodes and towns are refused with their reason", async () => {
    expect(await search("meal", { postcode: "99999" })).toEqual({
      kind: "refused",
      error: "storeLocator.errors.unknownPostcode",
    });
    expect(await search("meal", { postcode: "00000" })).toMatchObject({ kind: "refused" });
    expect(await search("meal", { town: "Zzyzxville" })).toEqual({
      kind: "refused",
      error: "storeLocator.errors.unknownTown",
    });
  });

  test("the beginning of a name finds its commune, or the communes to pick from", async () => {
    expect(found(await search("meal", { town: "Vaulx-en-Vel" })).place.code).toBe("69256");
    const several = await search("meal", { town: "Saint-Deni" });
    if (several.kind !== "choose") throw new Error(several.kind);
    expect(new Set(several.places.map((p) => p.name)).size).toBeGreaterThan(1);
    expect(several.places.every((p) => p.name.startsWith("Saint-Deni"))).toBe(true);
    // Two letters are too few to guess from.
    expect(await search("meal", { town: "Sx" })).toMatchObject({ kind: "refused" });
  });
});

describe("pages", () => {
  test("results come one page at a time, nearest first, a page past the end showing the last", async () => {
    for (let n = 0; n < STORE_PAGE_SIZE + 2; n++)
      await createPartner(handle.db, {
        name_fr: `Cantine ${String(n).padStart(2, "0")}`,
        zipcode: "38250",
        city: "Villard-de-Lans",
        category_code: "5812",
      });
    const first = found(await search("meal", { postcode: "38250" }));
    expect(first).toMatchObject({ total: STORE_PAGE_SIZE + 2, page: 1, pageCount: 2 });
    expect(first.shops).toHaveLength(STORE_PAGE_SIZE);
    const last = found(await search("meal", { postcode: "38250" }, { page: 99 }));
    expect(last.page).toBe(2);
    expect(last.shops.map((s) => s.name)).toEqual(["Cantine 10", "Cantine 11"]);
  });

  test("locating caches each address once: a second pass has nothing left to locate", async () => {
    await createPartner(handle.db, { name_fr: "Nouveau", zipcode: "33000", city: "Bordeaux", category_code: "5812" });
    expect(await locatePartners(handle.db, geodata, now)).toBe(1);
    expect(await locatePartners(handle.db, geodata, now)).toBe(0);
  });
});
