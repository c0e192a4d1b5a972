import { sql } from "kysely";
import type { DB } from "../db";
import type { PartnerTable } from "../db/schema";
import type { Locale } from "../env";
import { newId, nowIso } from "../ids";
import { partnerSuggestionSchema } from "~/domain/partner-suggestion-schemas";
import { partnerPageSize, PARTNER_SEARCH_MAX_LENGTH, type PartnerOption } from "~/domain/partners";
import { foldForSearch } from "~/domain/search-text";

/**
 * Partner shops (spec 001 §3 "Partner", §2.6 details step, §2.8): the search of the refund wizard and
 * the suggestion of a new establishment. Partners are a shared catalogue, not a user's data; a
 * suggestion belongs to the user who made it.
 */

export type { PartnerOption } from "~/domain/partners";

/** A LIKE pattern matching `word` anywhere; its own `%`, `_` and backslash are taken literally (escape backslash). */
function containsPattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The column of a partner's name in this language (the store locator reads it too). */
export const nameColumn = (locale: Locale) => (locale === "en" ? "name_en" : locale === "nl" ? "name_nl" : "name_fr");

const COLUMNS = [
  "id",
  "name_fr",
  "name_en",
  "name_nl",
  "line1",
  "zipcode",
  "city",
  "enabled",
  "disabled_reason",
] as const;

type PartnerRow = Pick<PartnerTable, (typeof COLUMNS)[number]>;

function optionOf(row: PartnerRow, locale: Locale): PartnerOption {
  return {
    id: row.id,
    name: row[nameColumn(locale)],
    line1: row.line1,
    zipcode: row.zipcode,
    city: row.city,
    enabled: row.enabled === 1,
    disabledReason: row.enabled === 1 ? null : row.disabled_reason,
  };
}

/**
 * Partners in France whose names hold every word of `query`, accents and case ignored ("gite vercors"
 * finds "Gîtes du Vercors"); enabled ones first, then by name. An empty query (or one of punctuation
 * only) finds nothing: the field lists results only once something is typed.
 */
export async function searchPartners(
  db: DB,
  query: string,
  options: { limit?: number; locale?: Locale } = {},
): Promise<PartnerOption[]> {
  const locale = options.locale ?? "fr";
  const words = foldForSearch(query.slice(0, PARTNER_SEARCH_MAX_LENGTH)).split(" ").filter(Boolean).slice(0, 10);
  if (words.length === 0) return [];
  let select = db.selectFrom("partners").select(COLUMNS).where("country", "=", "FR");
  for (const word of words) select = select.where(sql<boolean>`search_text like ${containsPattern(word)} escape '\\'`);
  const rows = await select
    .orderBy("enabled", "desc")
    .orderBy("search_text")
    .orderBy("id")
    .limit(partnerPageSize(options.limit))
    .execute();
  return rows.map((row) => optionOf(row, locale));
}

/** One partner (any country: a request may name one chosen earlier), or null. */
export async function getPartner(db: DB, id: string, locale: Locale = "fr"): Promise<PartnerOption | null> {
  if (id.length > 100) return null;
  const row = await db.selectFrom("partners").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? optionOf(row, locale) : null;
}

/** What a form sends: text fields, missing or empty when not given. */
export type PartnerSuggestionInput = Partial<
  Record<"name" | "website" | "email" | "phone" | "line1" | "zipcode" | "city" | "country", string | null>
>;

export type SuggestPartnerResult = { kind: "suggested" } | { kind: "invalid"; errors: Record<string, string[]> };

/**
 * Spec 001 §2.8, §5: stores the suggestion for review (status pending), the French name copied to
 * English and Dutch, the website with its scheme, the country as an upper-case alpha-2 code. Errors are
 * catalogue keys by field name (name, website, email, phone, line1, zipcode, city, country).
 */
export async function suggestPartner(
  db: DB,
  userId: string,
  input: PartnerSuggestionInput,
  now = new Date(),
): Promise<SuggestPartnerResult> {
  const parsed = partnerSuggestionSchema.safeParse(input);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "");
      (errors[field] ??= []).push(issue.message);
    }
    return { kind: "invalid", errors };
  }
  const s = parsed.data;
  await db
    .insertInto("partner_suggestions")
    .values({
      id: newId("psg"),
      user_id: userId,
      name_fr: s.name,
      name_en: s.name,
      name_nl: s.name,
      website: s.website ?? null,
      contact_email: s.email ?? null,
      contact_phone: s.phone ?? null,
      line1: s.line1 ?? null,
      zipcode: s.zipcode ?? null,
      city: s.city ?? null,
      country: s.country,
      status: "pending",
      created_at: nowIso(now),
    })
    .execute();
  return { kind: "suggested" };
}
