import { createI18nextMiddleware } from "remix-i18next/middleware";
import resources from "~/locales";

/** Only French is displayed (spec 000 §1); en and nl catalogues are kept complete for later. */
export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: { supportedLanguages: ["fr"], fallbackLanguage: "fr" },
  i18next: { resources, defaultNS: "translation", interpolation: { escapeValue: false } },
});
