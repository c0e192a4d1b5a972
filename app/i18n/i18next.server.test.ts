import { RouterContextProvider } from "react-router";
import { expect, test } from "vitest";
import { parseEnv } from "~/.server/env";
import en from "../../locales/en/translation.json";
import fr from "../../locales/fr/translation.json";
import { createI18nMiddleware, getInstance, getLocale } from "./i18next.server";

/** Runs the middleware for one request and reports what the route context was handed. */
async function languageOf(supportedLocales: string | undefined, acceptLanguage: string | null) {
  const middleware = createI18nMiddleware(parseEnv({ SUPPORTED_LOCALES: supportedLocales }).SUPPORTED_LOCALES);
  const headers = new Headers();
  if (acceptLanguage) headers.set("Accept-Language", acceptLanguage);
  const context = new RouterContextProvider();
  let seen: { locale: string; title: string; instance: unknown } | undefined;
  await middleware(
    {
      request: new Request("http://portal.test/login", { headers }),
      context,
      params: {},
      unstable_pattern: "/login",
    } as never,
    async () => {
      seen = {
        locale: getLocale(context),
        title: getInstance(context).t("badRequest.title"),
        instance: getInstance(context),
      };
      return new Response("ok");
    },
  );
  return seen!;
}

test("with SUPPORTED_LOCALES=fr,en, a browser asking for English gets English", async () => {
  const seen = await languageOf("fr,en", "en-GB,en;q=0.9");
  expect(seen.locale).toBe("en");
  expect(seen.title).toBe(en.badRequest.title);
  expect(seen.title).not.toBe(fr.badRequest.title);
});

test("with SUPPORTED_LOCALES=fr,en, a language not supported falls back to the first listed", async () => {
  expect((await languageOf("fr,en", "nl-BE,de;q=0.8")).locale).toBe("fr");
  expect((await languageOf("en,fr", "de")).locale).toBe("en");
  expect((await languageOf("fr,en", null)).locale).toBe("fr");
});

test("by default only French is shown, whatever the browser asks for", async () => {
  const seen = await languageOf(undefined, "en");
  expect(seen.locale).toBe("fr");
  expect(seen.title).toBe(fr.badRequest.title);
});

test("one i18next instance per language serves every request (none is made per request)", async () => {
  const first = await languageOf("fr,en", "en");
  const second = await languageOf("fr,en", "en-US");
  const french = await languageOf("fr,en", "fr");
  expect(second.instance).toBe(first.instance);
  expect(french.instance).not.toBe(first.instance);
});

test("SUPPORTED_LOCALES accepts only languages with a catalogue", () => {
  expect(parseEnv({}).SUPPORTED_LOCALES).toEqual(["fr"]);
  expect(parseEnv({ SUPPORTED_LOCALES: " FR, nl ,fr" }).SUPPORTED_LOCALES).toEqual(["fr", "nl"]);
  expect(() => parseEnv({ SUPPORTED_LOCALES: "fr,de" })).toThrow(/SUPPORTED_LOCALES/);
});
