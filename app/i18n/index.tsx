import { createContext, useContext, useMemo, type ReactNode } from "react";

/**
 * Translation in components: a small look-up in the request's catalogue, the same on the server (one
 * per language, made once, entry.server.tsx) and in the browser (catalogue fetched for the page's
 * `<html lang>`, entry.client.tsx), instead of shipping i18next and react-i18next (decisions 0008, 0013
 * and 0018). The request's language is chosen by `i18next.server.ts`, where server code outside
 * rendering finds its i18next instance.
 */
export type TranslateOptions = Record<string, unknown> & { defaultValue?: string };
export type Translate = (key: string, options?: TranslateOptions) => string;

type Catalogue = { [key: string]: string | Catalogue };

/** Looks `a.b.c` up and fills `{{name}}` placeholders; an unknown key shows its default, else itself. */
export function translatorFor(catalogue: Catalogue): Translate {
  // A key's text is looked up once (a page asks for the same few hundred keys on every render); a key the
  // catalogue lacks is not kept, so its default value still applies.
  const texts = new Map<string, string>();
  const lookUp = (key: string) => {
    let text = texts.get(key);
    if (text === undefined) {
      const found = key
        .split(".")
        .reduce<string | Catalogue | undefined>(
          (node, part) => (typeof node === "object" ? node[part] : undefined),
          catalogue,
        );
      if (typeof found === "string") texts.set(key, (text = found));
    }
    return text;
  };
  return (key, options) => {
    const text = lookUp(key) ?? options?.defaultValue ?? key;
    return options && text.includes("{{")
      ? text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in options ? String(options[name]) : whole))
      : text;
  };
}

interface Translation {
  t: Translate;
  i18n: { language: string };
}

const TranslateContext = createContext<Translation>({ t: (key) => key, i18n: { language: "fr" } });

export function TranslationProvider({
  translate,
  locale,
  children,
}: {
  translate: Translate;
  locale: string;
  children: ReactNode;
}) {
  const value = useMemo(() => ({ t: translate, i18n: { language: locale } }), [translate, locale]);
  return <TranslateContext.Provider value={value}>{children}</TranslateContext.Provider>;
}

/** Same shape as react-i18next's hook (`t`, `i18n.language`), so components read the same. */
export function useTranslation(): Translation {
  return useContext(TranslateContext);
}
