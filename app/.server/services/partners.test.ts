import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { createAccount, createPartner } from "../db/factories";
import { openTestDatabase } from "../../../tests/support/test-database";
import { partnerPageSize } from "~/domain/partners";
import { getPartner, searchPartners, suggestPartner } from "./partners";

let handle: DatabaseHandle;
let userId: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  handle = await openTestDatabase();
  const { db } = handle;
  ({ userId } = await createAccount(db, { email: "partners@example.com", passwordHash: "x" }));
  for (const fields of [
    { name_fr: "Gîtes du Vercors", name_en: "Vercors Holiday Cottages", name_nl: "Vakantiehuizen Vercors" },
    { name_fr: "Boulangerie Pain & Co", city: "Lyon" },
    { name_fr: "Boulangerie Zola", disabled_reason: "Établissement fermé définitivement." },
    { name_fr: "Boulangerie Ancienne", enabled: 0 },
    { name_fr: "Boulangerie de Bruxelles", country: "BE" },
    { name_fr: "Cent pour 100 % Vélo" },
    { name_fr: "ÉCOLE DE SKI" },
  ]) {
    ids[fields.name_fr] = (await createPartner(db, fields)).id;
  }
  // More than a page of one word, to see the limits.
  for (let i = 1; i <= 20; i++) await createPartner(db, { name_fr: `Librairie n° ${String(i).padStart(2, "0")}` });
}, 30_000);
afterAll(() => handle.close());

const names = (options: { name: string }[]) => options.map((o) => o.name);

test("accents, case and punctuation are ignored; every word must match", async () => {
  const { db } = handle;
  expect(names(await searchPartners(db, "gites vercors"))).toEqual(["Gîtes du Vercors"]);
  expect(names(await searchPartners(db, "GÎTES"))).toEqual(["Gîtes du Vercors"]);
  expect(names(await searchPartners(db, "ecole ski"))).toEqual(["ÉCOLE DE SKI"]);
  expect(names(await searchPartners(db, "école-de-ski"))).toEqual(["ÉCOLE DE SKI"]);
  expect(names(await searchPartners(db, "pain & co"))).toEqual(["Boulangerie Pain & Co"]);
  expect(await searchPartners(db, "gites lyon")).toEqual([]);
  // The English and Dutch names are searched too.
  expect(names(await searchPartners(db, "cottages"))).toEqual(["Gîtes du Vercors"]);
});

test("France only, enabled first then by name, disabled ones with their reason", async () => {
  const found = await searchPartners(handle.db, "boulangerie");
  expect(found.map((p) => [p.name, p.enabled, p.disabledReason])).toEqual([
    ["Boulangerie Pain & Co", true, null],
    ["Boulangerie Ancienne", false, null],
    ["Boulangerie Zola", false, "Établissement fermé définitivement."],
  ]);
  expect(found[0]).toMatchObject({ id: ids["Boulangerie Pain & Co"], line1: "1 place Bellecour", zipcode: "69002" });
});

test("the name is given in the person's language", async () => {
  expect(names(await searchPartners(handle.db, "vercors", { locale: "en" }))).toEqual(["Vercors Holiday Cottages"]);
  expect(names(await searchPartners(handle.db, "vercors", { locale: "nl" }))).toEqual(["Vakantiehuizen Vercors"]);
});

test("10 results, or 15 when asked for more; never more", async () => {
  expect(await searchPartners(handle.db, "librairie")).toHaveLength(10);
  expect(await searchPartners(handle.db, "librairie", { limit: 15 })).toHaveLength(15);
  expect(await searchPartners(handle.db, "librairie", { limit: 1000 })).toHaveLength(15);
  expect(names(await searchPartners(handle.db, "librairie", { limit: 3 }))[0]).toBe("Librairie n° 01");
  expect([partnerPageSize("abc"), partnerPageSize(undefined), partnerPageSize("15"), partnerPageSize(1e9)]).toEqual([
    10, 10, 15, 15,
  ]);
});

test("an empty query, or wildcards and punctuation alone, find nothing; wildcards are never patterns", async () => {
  const { db } = handle;
  for (const query of ["", "   ", "%", "_", "%%", "__", "\\", "'", "%_%", "-"]) {
    expect(await searchPartners(db, query), JSON.stringify(query)).toEqual([]);
  }
  // "%" between letters is folded to a space: "100 % velo" is the words 100 and velo.
  expect(names(await searchPartners(db, "100%velo"))).toEqual(["Cent pour 100 % Vélo"]);
  expect(await searchPartners(db, "x".repeat(10_000))).toEqual([]);
});

test("getPartner: by id in the person's language, null for an unknown id", async () => {
  expect(await getPartner(handle.db, ids["Gîtes du Vercors"]!, "en")).toMatchObject({
    name: "Vercors Holiday Cottages",
    enabled: true,
  });
  expect(await getPartner(handle.db, "ptn_nope")).toBeNull();
  expect(await getPartner(handle.db, "x".repeat(500))).toBeNull();
});

async function lastSuggestion() {
  return handle.db
    .selectFrom("partner_suggestions")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .executeTakeFirstOrThrow();
}

test("a suggestion is stored pending, the French name copied, the website given its scheme, the country upper case", async () => {
  const result = await suggestPartner(
    handle.db,
    userId,
    {
      name: "  La Cordonnerie  ",
      website: "cordonnerie.example.fr",
      email: "contact@cordonnerie.example.fr",
      phone: "04 78 00 00 00",
      line1: "3 rue Mercière",
      zipcode: "69002",
      city: "Lyon",
      country: "fr",
    },
    new Date("2026-11-20T10:00:00Z"),
  );
  expect(result).toEqual({ kind: "suggested" });
  expect(await lastSuggestion()).toMatchObject({
    name_fr: "La Cordonnerie",
    name_en: "La Cordonnerie",
    name_nl: "La Cordonnerie",
    website: "http://cordonnerie.example.fr",
    contact_email: "contact@cordonnerie.example.fr",
    contact_phone: "04 78 00 00 00",
    line1: "3 rue Mercière",
    zipcode: "69002",
    city: "Lyon",
    country: "FR",
    status: "pending",
  });
});

test("only the name is required; empty fields are stored as nothing, the country defaults to France", async () => {
  const result = await suggestPartner(
    handle.db,
    userId,
    { name: "Chez Paul", website: "", email: "  ", phone: null, country: "" },
    new Date("2026-11-21T10:00:00Z"),
  );
  expect(result).toEqual({ kind: "suggested" });
  expect(await lastSuggestion()).toMatchObject({
    name_fr: "Chez Paul",
    website: null,
    contact_email: null,
    contact_phone: null,
    line1: null,
    country: "FR",
  });
  expect(
    await suggestPartner(handle.db, userId, { name: "Gîte", website: "https://gite.example.fr:8443/a?b=1" }),
  ).toEqual({ kind: "suggested" });
});

test("refused suggestions say why on each field, and store nothing", async () => {
  const before = await handle.db
    .selectFrom("partner_suggestions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const cases: [Record<string, string | null>, Record<string, string[]>][] = [
    [{ name: "  " }, { name: ["partners.suggest.errors.nameRequired"] }],
    [{}, { name: ["partners.suggest.errors.nameRequired"] }],
    [{ name: "x".repeat(101) }, { name: ["partners.suggest.errors.nameTooLong"] }],
    [{ name: "A", website: "javascript:alert(1)" }, { website: ["partners.suggest.errors.websiteInvalid"] }],
    [{ name: "A", website: "ftp://files.example.fr" }, { website: ["partners.suggest.errors.websiteInvalid"] }],
    [{ name: "A", website: "data:text/html,hi" }, { website: ["partners.suggest.errors.websiteInvalid"] }],
    [{ name: "A", website: "pas un site" }, { website: ["partners.suggest.errors.websiteInvalid"] }],
    [{ name: "A", website: "localhost" }, { website: ["partners.suggest.errors.websiteInvalid"] }],
    [{ name: "A", website: "http://user:pw@example.fr" }, { website: ["partners.suggest.errors.websiteInvalid"] }],
    [{ name: "A", website: `${"a".repeat(260)}.fr` }, { website: ["partners.suggest.errors.websiteTooLong"] }],
    [{ name: "A", email: "pas-un-mail" }, { email: ["errors.emailInvalid"] }],
    [{ name: "A", phone: "12" }, { phone: ["errors.phoneTooShort"] }],
    [{ name: "A", phone: "appelez-moi svp" }, { phone: ["errors.phoneInvalid"] }],
    [{ name: "A", line1: "x".repeat(51) }, { line1: ["errors.maxLength50"] }],
    [{ name: "A", zipcode: "<script>" }, { zipcode: ["errors.zipcodeInvalid"] }],
    [{ name: "A", city: "69002" }, { city: ["errors.cityNumeric"] }],
    [{ name: "A", country: "XX" }, { country: ["errors.countryInvalid"] }],
    [{ name: "A", country: "France" }, { country: ["errors.countryInvalid"] }],
  ];
  for (const [input, errors] of cases) {
    const result = await suggestPartner(handle.db, userId, input);
    expect(result.kind, JSON.stringify(input)).toBe("invalid");
    if (result.kind !== "invalid") continue;
    // The first message of each field is the one shown.
    const first = Object.fromEntries(Object.entries(result.errors).map(([k, v]) => [k, v.slice(0, 1)]));
    expect(first, JSON.stringify(input)).toEqual(errors);
  }
  const after = await handle.db
    .selectFrom("partner_suggestions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  expect(Number(after.n)).toBe(Number(before.n));
});
