import type { RouteConfigEntry } from "@react-router/dev/routes";
import { expect, test } from "vitest";
import routes from "~/routes";
import { internalPath, internalRedirect, isSignedInPage, SIGNED_IN_PAGES } from "~/routes/+shared/redirects.server";

const SITE = "https://portal.example";

test("each parameter is exactly one encoded segment: nothing in it moves the path, leaves the site or breaks the header", () => {
  const hostile = [
    "../\t/evil.example",
    "../../../etc/passwd",
    "\r\nX",
    "\0",
    "€ carte 日本",
    "a/b",
    "a\\b",
    "//evil.example",
    "?q=1",
    "#frag",
    "%",
    "...",
  ];
  for (const id of hostile) {
    const path = internalPath("/cards/:cardId/transactions/:authorizationId/retry", {
      cardId: id,
      authorizationId: id,
    });
    const segments = path.split("/");
    expect(segments, JSON.stringify(id)).toHaveLength(6);
    expect(decodeURIComponent(segments[2]!)).toBe(id);
    // Printable ASCII only: a valid header value, read the same by every browser.
    expect(path).toMatch(/^\/[\x21-\x7e]+$/);
    const url = new URL(path, SITE);
    expect([url.origin, url.pathname, url.search, url.hash]).toEqual([SITE, path, "", ""]);
    expect(internalRedirect(path).headers.get("Location")).toBe(path);
  }
});

test("empty, `.` and `..` cannot be a segment: they name no page (404)", () => {
  for (const id of ["", ".", ".."]) {
    let thrown: unknown;
    try {
      internalPath("/wallets/:walletId", { walletId: id });
    } catch (error) {
      thrown = error;
    }
    expect(thrown, JSON.stringify(id)).toMatchObject({ init: { status: 404 } });
  }
});

test("query and fragment are encoded too; optional parameters may be left out", () => {
  expect(internalPath("/login", {}, { search: { email: "a+b@example.com" } })).toBe("/login?email=a%2Bb%40example.com");
  expect(internalPath("/cards/:cardId/stop", { cardId: "card_1" }, { search: { done: "1" } })).toBe(
    "/cards/card_1/stop?done=1",
  );
  expect(internalPath("/cards/:cardId", { cardId: "card_1" }, { hash: "tx-a b\n" })).toBe("/cards/card_1#tx-a%20b%0A");
  expect(internalPath("/activate/:token?", {})).toBe("/activate");
  expect(internalPath("/activate/:token?", { token: "t/k" })).toBe("/activate/t%2Fk");
  expect(internalPath("/", {})).toBe("/");
});

/** The full path of an entry and of everything below it ("/cards/:cardId/freeze"). */
function pathsOf(entry: RouteConfigEntry, parent = ""): string[] {
  const path = entry.path ? `${parent}/${entry.path}` : parent;
  return [
    ...(entry.path || entry.index ? [path || "/"] : []),
    ...(entry.children ?? []).flatMap((child) => pathsOf(child, path)),
  ];
}

test("the signed-in pages a sign-in may lead back to are exactly those of the three signed-in layouts of routes.ts", () => {
  const layouts = ["routes/onboarding/layout.tsx", "routes/secure-account/layout.tsx", "routes/shell/layout.tsx"];
  const signedIn = routes.filter((entry) => layouts.includes(entry.file)).flatMap((entry) => pathsOf(entry));
  expect(new Set(SIGNED_IN_PAGES)).toEqual(new Set(signedIn));
  expect(isSignedInPage("/cards/card_1/transactions/auth_1/report")).toBe(true);
  expect(isSignedInPage("/cards/card_1/nope")).toBe(false);
  expect(isSignedInPage("/login")).toBe(false);
});
