import { expect, test } from "vitest";
import {
  clickAttributes,
  clickEventUrl,
  dataLayerEntry,
  parseClickEvent,
  tagAttributes,
  tagManagerScriptUrl,
  type ClickEvent,
} from "./tag-events";

const parse = (query: string) => parseClickEvent(new URLSearchParams(query));

test("a link's ping URL reads back as the same event", () => {
  const events: ClickEvent[] = [
    { name: "clickCreateCard", properties: {} },
    { name: "clickShowWalletsPriority", properties: {} },
    { name: "clickMenu", properties: { target: "/wallets/wal_1" } },
  ];
  for (const event of events) {
    const url = new URL(clickEventUrl(event), "http://portal.test");
    expect(url.pathname).toBe("/events");
    expect(parseClickEvent(url.searchParams)).toEqual(event);
  }
});

test("queries the portal's links never send are refused", () => {
  expect(parse("")).toBeNull();
  expect(parse("name=clickPartner&partner=uggy")).toBeNull();
  expect(parse("name=submitCreateCard")).toBeNull();
  expect(parse("name=survey+sent")).toBeNull();
  expect(parse("name=clickCreateCard&name=clickMenu")).toBeNull();
  expect(parse("name=clickCreateCard&card=x")).toBeNull();
  expect(parse("name=clickMenu")).toBeNull();
  expect(parse("name=clickMenu&target=/cards&target=/wallets")).toBeNull();
  expect(parse("name=clickMenu&target=/cards&extra=1")).toBeNull();
  expect(parse("name=clickMenu&target=https://evil.example")).toBeNull();
  expect(parse("name=clickMenu&target=//evil.example")).toBeNull();
  expect(parse(`name=clickMenu&target=/${"a".repeat(300)}`)).toBeNull();
});

test("a link pings only when told to; the data attributes are always there for the dataLayer", () => {
  const menu = { name: "clickMenu", properties: { target: "/store-locator" } } as const;
  expect(clickAttributes(menu, false)).toEqual({
    "data-tag-event": "clickMenu",
    "data-tag-properties": '{"target":"/store-locator"}',
  });
  expect(clickAttributes(menu, true).ping).toBe("/events?name=clickMenu&target=%2Fstore-locator");
  expect(tagAttributes({ name: "clickCreateCard", properties: {} })).toEqual({ "data-tag-event": "clickCreateCard" });
});

test("the dataLayer gets the server's name and properties", () => {
  expect(dataLayerEntry({ name: "submitCreateExpenseRequest", properties: { type: "culture" } })).toEqual({
    event: "submitCreateExpenseRequest",
    type: "culture",
  });
});

test("the sandbox id loads nothing; a container id loads its script from Google Tag Manager", () => {
  expect(tagManagerScriptUrl("sandbox")).toBeNull();
  expect(tagManagerScriptUrl("GTM-AB12CD")).toBe("https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD");
});
