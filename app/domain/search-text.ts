/**
 * Text folded for searching: no accents, lower case, punctuation as single spaces. "Gîtes du Vercors",
 * "GITES-du vercors" and "gites du  vercors" fold alike. Partner names are stored folded beside their
 * names (partners.search_text) so a search is a plain LIKE on both databases.
 */
export function foldForSearch(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/&/g, " et ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** A partner's three names, folded and deduplicated: what a partner search matches against. */
export function partnerSearchText(p: { name_fr: string; name_en: string; name_nl: string }): string {
  return [...new Set([p.name_fr, p.name_en, p.name_nl].map(foldForSearch))].join(" | ");
}
