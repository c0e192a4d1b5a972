import { createInstance, type i18n } from "i18next";
import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import resources from "~/locales";

/**
 * Only French is displayed (spec 000 §1); en and nl catalogues are kept complete for later. One
 * i18next instance serves every request: the language never changes per request, and making and
 * initialising an instance each time (what remix-i18next's middleware does) was a tenth of a page's
 * server time (decision 0013). Same three exports as that middleware, so routes read the same.
 */
const LOCALE = "fr";
const shared: i18n = createInstance({ resources, lng: LOCALE, fallbackLng: LOCALE, supportedLngs: [LOCALE], defaultNS: "translation", interpolation: { escapeValue: false }, initAsync: false });
void shared.init();

const instanceContext = createContext<i18n>(shared);

export const i18nextMiddleware: MiddlewareFunction<Response> = ({ context }, next) => {
  context.set(instanceContext, shared);
  return next();
};

export const getLocale = (_context: Readonly<RouterContextProvider>): string => LOCALE;

export const getInstance = (context: Readonly<RouterContextProvider>): i18n => context.get(instanceContext);
