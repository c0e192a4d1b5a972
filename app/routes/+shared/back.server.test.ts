import { expect, test } from "vitest";
import { MAX_BACK_LENGTH, panelBack, panelBackOf } from "./back.server";

test.each([
  // Pages of the signed-in portal are kept, with their query (a tab, a page of a list).
  ["/wallets", "/wallets"],
  ["/cards/card_1/delivery", "/cards/card_1/delivery"],
  ["/plans/expense-requests?tab=finished", "/plans/expense-requests?tab=finished"],
  ["/notifications?back=%2Fwallets", "/notifications?back=%2Fwallets"],
  // Nothing, or not a path.
  [null, "/cards"],
  ["", "/cards"],
  ["wallets", "/cards"],
  ["javascript:alert(1)", "/cards"],
  // Outside URLs, protocol-relative and backslash tricks, raw or encoded.
  ["https://evil.example/cards", "/cards"],
  ["//evil.example", "/cards"],
  ["//evil.example/cards", "/cards"],
  ["/\\evil.example", "/cards"],
  ["/%5Cevil.example", "/cards"],
  ["/%2F%2Fevil.example", "/cards"],
  ["/%2e%2e%2f%2fevil.example", "/cards"],
  ["/cards/..//evil.example", "/cards"],
  ["/\tevil.example", "/cards"],
  ["/wallets\r\nSet-Cookie: x=1", "/cards"],
  // A page that is not one of the signed-in portal's.
  ["/login", "/cards"],
  ["/dev/outbox", "/cards"],
  ["/etc/passwd", "/cards"],
])("panelBack(%j) over the support chat → %s", (value, expected) => {
  expect(panelBack(value, { self: "/support" })).toBe(expected);
});

test("a panel never goes back to itself or below itself", () => {
  expect(panelBack("/support", { self: "/support" })).toBe("/cards");
  expect(panelBack("/support?back=/wallets&card=c1", { self: "/support" })).toBe("/cards");
  expect(panelBack("/notifications", { self: "/notifications" })).toBe("/cards");
  expect(panelBack("/notifications/count", { self: "/notifications" })).toBe("/cards");
  expect(panelBack("/notifications?unread=1", { self: "/notifications" })).toBe("/cards");
  expect(panelBack("/%6Eotifications", { self: "/notifications" })).toBe("/cards");
  // Another panel is a page like any other.
  expect(panelBack("/support?back=/wallets", { self: "/notifications" })).toBe("/support?back=/wallets");
  expect(panelBack("/notifications", { self: "/support" })).toBe("/notifications");
  // Only whole segments: a longer name is another page.
  expect(panelBack("/settings/notifications", { self: "/notifications" })).toBe("/settings/notifications");
});

test("an over-long back is the default, whatever it names", () => {
  const long = `/wallets?tab=${"a".repeat(MAX_BACK_LENGTH)}`;
  expect(panelBack(long, { self: "/support" })).toBe("/cards");
  const fits = `/wallets?tab=${"a".repeat(MAX_BACK_LENGTH - "/wallets?tab=".length)}`;
  expect(panelBack(fits, { self: "/support" })).toBe(fits);
});

test("the default is the caller's", () => {
  expect(
    panelBack("https://evil.example", { self: "/plans/suggest-establishment", fallback: "/plans/integrations" }),
  ).toBe("/plans/integrations");
  expect(
    panelBack("/plans/suggest-establishment", { self: "/plans/suggest-establishment", fallback: "/plans/allowances" }),
  ).toBe("/plans/allowances");
});

test("panelBackOf reads the request's `back`, decoded once by the URL", () => {
  const request = (query: string) => new Request(`http://portal.test/support?${query}`);
  expect(panelBackOf(request("back=%2Fwallets"), { self: "/support" })).toBe("/wallets");
  expect(panelBackOf(request("back=%2F%2Fevil.example"), { self: "/support" })).toBe("/cards");
  expect(panelBackOf(request("back=%252F%252Fevil.example"), { self: "/support" })).toBe("/cards");
  expect(panelBackOf(request("card=c1"), { self: "/support" })).toBe("/cards");
});
