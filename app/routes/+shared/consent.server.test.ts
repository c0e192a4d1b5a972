import { describe, expect, test } from "vitest";
import { bannerReturnPath, browserConsentOf, consentCookieHeader } from "./consent.server";

const withCookie = (cookie: string) => new Request("http://localhost/login", { headers: { Cookie: cookie } });

describe("browserConsentOf", () => {
  test("reads the portal's own values, among other cookies", () => {
    expect(browserConsentOf(withCookie("session=abc; consent=accept.refuse; x=1"))).toEqual({
      analytics: true,
      tagManager: false,
    });
    expect(browserConsentOf(withCookie("consent=refuse.refuse"))).toEqual({ analytics: false, tagManager: false });
  });

  test("anything else is no choice: the banner asks", () => {
    for (const cookie of [
      "",
      "consent=",
      "consent=accept",
      "consent=accept.maybe",
      "consent=accept.accept.x",
      "xconsent=accept.accept",
    ])
      expect(browserConsentOf(withCookie(cookie)), cookie).toBeNull();
    expect(browserConsentOf(new Request("http://localhost/"))).toBeNull();
  });
});

test("the cookie is the server's only, secure in production", () => {
  const choice = { analytics: false, tagManager: true };
  expect(consentCookieHeader(choice, { APP_MODE: "sandbox" })).toBe(
    "consent=refuse.accept; Path=/; Max-Age=15811200; HttpOnly; SameSite=Lax",
  );
  expect(consentCookieHeader(choice, { APP_MODE: "production" })).toMatch(/; Secure$/);
});

describe("bannerReturnPath", () => {
  test("a page of the portal, public or signed in, with its query", () => {
    expect(bannerReturnPath("/login")).toBe("/login");
    expect(bannerReturnPath("/lost-password?email=a%40b.fr")).toBe("/lost-password?email=a%40b.fr");
    expect(bannerReturnPath("/reset-password/abc")).toBe("/reset-password/abc");
    expect(bannerReturnPath("/cards/card_1")).toBe("/cards/card_1");
    expect(bannerReturnPath("/plans/allowances?page=2")).toBe("/plans/allowances?page=2");
  });

  test("another site, a path read as a host, an unknown page or no value: the home page", () => {
    for (const value of [
      "https://evil.example/login",
      "//evil.example/login",
      "/\\evil.example",
      "/%5Cevil.example",
      "/login\u0000",
      "/nowhere",
      "login",
      "",
      "/" + "a".repeat(3000),
    ])
      expect(bannerReturnPath(value), value).toBe("/");
    expect(bannerReturnPath(null)).toBe("/");
  });
});
