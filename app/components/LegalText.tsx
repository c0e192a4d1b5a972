import { useTranslation, type Translate } from "~/i18n";

/** The entries of a catalogue list (an object keyed "0", "1"…): in order, until one is missing. */
export function catalogueList(t: Translate, key: string): string[] {
  const items: string[] = [];
  for (let i = 0; ; i++) {
    const item = t(`${key}.${i}`, { defaultValue: "" });
    if (!item) return items;
    items.push(item);
  }
}

/** A legal page's list of points, read from the catalogue's `legal.<page>.<list>`. */
export function LegalList({ page, list }: { page: "terms" | "privacy"; list: string }) {
  const { t } = useTranslation();
  const listKey = `legal.${page}.${list}`;
  return (
    <ul className="legal__list">
      {catalogueList(t, listKey).map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}
