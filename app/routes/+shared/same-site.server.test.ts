import { expect, test } from "vitest";
import { requestSite, shownFromThisSite } from "./same-site.server";

const site = (headers: Record<string, string>) =>
  requestSite((name) => new Headers({ Host: "portail.example:3000", ...headers }).get(name));

test("Fetch Metadata: same-origin and none (typed, bookmarked) are this site; same-site and cross-site are not", () => {
  expect(site({ "Sec-Fetch-Site": "same-origin" })).toBe("thisSite");
  expect(site({ "Sec-Fetch-Site": "none" })).toBe("thisSite");
  expect(site({ "Sec-Fetch-Site": "same-site" })).toBe("otherSite");
  expect(site({ "Sec-Fetch-Site": "cross-site" })).toBe("otherSite");
  // A referrer naming this site does not outweigh the browser's own word.
  expect(site({ "Sec-Fetch-Site": "cross-site", Referer: "http://portail.example:3000/cards" })).toBe("otherSite");
});

test("Origin, when sent, must name this host; 'null' and nonsense are another site", () => {
  expect(site({ Origin: "http://portail.example:3000" })).toBe("thisSite");
  expect(site({ Origin: "http://portail.example:3001" })).toBe("otherSite");
  expect(site({ Origin: "null" })).toBe("otherSite");
  expect(site({ Origin: "::not a url" })).toBe("otherSite");
  expect(site({ "Sec-Fetch-Site": "same-origin", Origin: "https://evil.example" })).toBe("otherSite");
});

test("without Fetch Metadata nor Origin (older browsers), the Referer decides; with nothing, unknown", () => {
  expect(site({ Referer: "http://portail.example:3000/cards/1?x=1" })).toBe("thisSite");
  expect(site({ Referer: "https://evil.example/portail.example:3000" })).toBe("otherSite");
  expect(site({})).toBe("unknown");
});

test("a page may write only when shown from this site, not when unknown", () => {
  const request = (headers: Record<string, string>) =>
    new Request("http://portail.example:3000/notifications", { headers: { Host: "portail.example:3000", ...headers } });
  expect(shownFromThisSite(request({ "Sec-Fetch-Site": "same-origin" }))).toBe(true);
  expect(shownFromThisSite(request({ "Sec-Fetch-Site": "cross-site" }))).toBe(false);
  expect(shownFromThisSite(request({}))).toBe(false);
});
