import { createInstance, type i18n } from "i18next";
import type { RouterContextProvider } from "react-router";
import resources from "~/locales";

/**
 * Only French is displayed (spec 000 §1); en and nl catalogues are kept complete for later. One
 * i18next instance, made at start, serves every request: the language never changes per request, and
 * making an instance each time (remix-i18next's middleware) cost a tenth of a page's server time
 * (decision 0013). Routes still ask for it through their context, as they did with that middleware.
 */
const LOCALE = "fr";
const shared: i18n = createInstance({ resources, lng: LOCALE, fallbackLng: LOCALE, supportedLngs: [LOCALE], defaultNS: "translation", interpolation: { escapeValue: false }, initAsync: false });
void shared.init();

export const getInstance = (_context: Readonly<RouterContextProvider>): i18n => shared;
