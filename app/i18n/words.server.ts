import resources, { type Catalogue } from "./catalogues";
import { translatorFor } from "./index";

/** Every key of the catalogue, `a.b.c`, as a type: a key that is not there fails the typecheck. */
type KeysOf<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : KeysOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
export type CatalogueKey = KeysOf<Catalogue>;

/** Every section of the catalogue (a key whose value holds other keys), `a.b`, as a type. */
type SectionsOf<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? never : `${Prefix}${K}` | SectionsOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
export type CatalogueSection = SectionsOf<Catalogue>;

const french = translatorFor(resources.fr.translation);

/**
 * The one translator of words written outside a page (decision 0051): e-mails, pushes and the
 * notification centre's sentences are French (spec 000 §1), whatever the browser asks. Services never
 * read the catalogue themselves; the wording modules beside them call this, with the catalogue's keys
 * (typed) and `{{placeholders}}` filled by the same look-up the pages use (`translatorFor`).
 */
export function frenchWords(key: CatalogueKey, values?: Record<string, string | number>): string {
  return french(key, values);
}

/** The words of a code in a section of the catalogue (the notification types), or the fallback key's when it has none. */
export function frenchWordsOf(prefix: CatalogueSection, code: string, fallback: CatalogueKey): string {
  const key = `${prefix}.${code}`;
  const said = french(key, { defaultValue: "" });
  return said === "" ? french(fallback) : said;
}
