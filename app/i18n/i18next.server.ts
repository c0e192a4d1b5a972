import { createInstance, type i18n } from "i18next";
import { LanguageDetector } from "remix-i18next/server";
import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { CATALOGUE_LOCALES, type Locale } from "~/.server/env";
import { getPlatform } from "~/.server/platform";
import resources from "./catalogues";

/**
 * The language of each request (decision 0018). remix-i18next's `LanguageDetector` picks the best of
 * the supported languages (`SUPPORTED_LOCALES`, French only by default: spec 000 §1) from the
 * request's Accept-Language, else the first supported one. Its own middleware would make and
 * initialise an i18next instance on every request, a tenth of a page's server time (decision 0013), so
 * one instance per catalogue language is made here at start, and the request is handed the one for its
 * language through the route context (`getInstance`, `getLocale`).
 */
function instanceFor(lng: Locale): i18n {
  const instance = createInstance({
    resources,
    lng,
    fallbackLng: lng,
    supportedLngs: [lng],
    defaultNS: "translation",
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  void instance.init();
  return instance;
}

const instances = Object.fromEntries(CATALOGUE_LOCALES.map((lng) => [lng, instanceFor(lng)])) as Record<Locale, i18n>;

interface RequestLanguage {
  locale: Locale;
  i18n: i18n;
}

/** French until the middleware has run (it runs first, on every matched request). */
const languageContext = createContext<RequestLanguage>({ locale: "fr", i18n: instances.fr });

/** The middleware for a list of supported languages (the first one is the fallback). */
export function createI18nMiddleware(supported: readonly Locale[]): MiddlewareFunction<Response> {
  const fallback = supported[0] ?? "fr";
  if (supported.length === 1) {
    // One language (the default): nothing to detect.
    const only = { locale: fallback, i18n: instances[fallback] };
    return ({ context }, next) => {
      context.set(languageContext, only);
      return next();
    };
  }
  const detector = new LanguageDetector({
    supportedLanguages: [...supported],
    fallbackLanguage: fallback,
    order: ["header"],
  });
  return async ({ request, context }, next) => {
    const locale = (await detector.detect(request)) as Locale;
    context.set(languageContext, { locale, i18n: instances[locale] });
    return next();
  };
}

const middlewares = new Map<string, MiddlewareFunction<Response>>();

/** The root route's middleware: the configured languages, one detector per list. */
export const i18nMiddleware: MiddlewareFunction<Response> = async (args, next) => {
  const { env } = await getPlatform();
  const key = env.SUPPORTED_LOCALES.join(",");
  let middleware = middlewares.get(key);
  if (!middleware) middlewares.set(key, (middleware = createI18nMiddleware(env.SUPPORTED_LOCALES)));
  return middleware(args, next);
};

/** The request's i18next instance (server code outside rendering: actions' messages). */
export const getInstance = (context: Readonly<RouterContextProvider>): i18n => context.get(languageContext).i18n;

/** The request's language: pages are rendered in it (entry.server.tsx) and `<html lang>` says it. */
export const getLocale = (context: Readonly<RouterContextProvider>): Locale => context.get(languageContext).locale;
