import { createContext, useContext, type ReactNode } from "react";

/**
 * Translation in components: a small look-up in the French catalogue, the same on the server (made
 * once, entry.server.tsx) and in the browser (catalogue fetched), instead of shipping i18next and
 * react-i18next (decisions 0008 and 0013). Server code outside rendering uses i18next.
 */
export type TranslateOptions = Record<string, unknown> & { defaultValue?: string };
export type Translate = (key: string, options?: TranslateOptions) => string;

type Catalogue = { [key: string]: string | Catalogue };

/** Looks `a.b.c` up and fills `{{name}}` placeholders; an unknown key shows its default, else itself. */
export function translatorFor(catalogue: Catalogue): Translate {
  return (key, options) => {
    const found = key.split(".").reduce<string | Catalogue | undefined>((node, part) => (typeof node === "object" ? node[part] : undefined), catalogue);
    const text = typeof found === "string" ? found : (options?.defaultValue ?? key);
    return options ? text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in options ? String(options[name]) : whole)) : text;
  };
}

const TranslateContext = createContext<Translate>((key) => key);

export function TranslationProvider({ translate, children }: { translate: Translate; children: ReactNode }) {
  return <TranslateContext.Provider value={translate}>{children}</TranslateContext.Provider>;
}

/** Same shape as react-i18next's hook, so components read the same. */
export function useTranslation(): { t: Translate } {
  return { t: useContext(TranslateContext) };
}
