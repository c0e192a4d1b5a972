import type { Resource } from "i18next";
import en from "../../locales/en/translation.json" with { type: "json" };
import fr from "../../locales/fr/translation.json" with { type: "json" };
import nl from "../../locales/nl/translation.json" with { type: "json" };

/** The three catalogues (top-level locales/); a test keeps their keys identical. */
const resources = {
  fr: { translation: fr },
  en: { translation: en },
  nl: { translation: nl },
} satisfies Resource;

export default resources;
export type Catalogue = typeof fr;
