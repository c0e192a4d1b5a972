import { expect, test } from "vitest";
import {
  CHUNK_LOAD_TIMEOUT_MS,
  destinationAfterReload,
  mayRetry,
  RELOAD_FOLLOWS_WITHIN_MS,
  type PendingNavigation,
} from "./chunk-reload";

const FROM = "https://portail.example/cards/card_1";
const TO = "https://portail.example/wallets/w_1";
const left: PendingNavigation = { from: FROM, to: TO, at: 1_000_000 };

test("the spec's chunk load time-out is 120 s", () => {
  expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
});

test("a reload of the page a navigation was left from goes on to the destination", () => {
  expect(destinationAfterReload(left, { href: FROM, reloaded: true }, null, left.at + 300)).toBe(TO);
});

test("only a reload, of that very page, just after it was left", () => {
  // A fresh visit (a link, the address bar), not a reload.
  expect(destinationAfterReload(left, { href: FROM, reloaded: false }, null, left.at + 300)).toBeNull();
  // Another page reloaded.
  expect(destinationAfterReload(left, { href: TO, reloaded: true }, null, left.at + 300)).toBeNull();
  // Much later: another reload altogether.
  expect(
    destinationAfterReload(left, { href: FROM, reloaded: true }, null, left.at + RELOAD_FOLLOWS_WITHIN_MS + 1),
  ).toBeNull();
  // A clock that went back.
  expect(destinationAfterReload(left, { href: FROM, reloaded: true }, null, left.at - 1)).toBeNull();
  // Nothing was under way.
  expect(destinationAfterReload(null, { href: FROM, reloaded: true }, null, left.at)).toBeNull();
  // A navigation to the same page: the reload already is it.
  expect(destinationAfterReload({ ...left, to: FROM }, { href: FROM, reloaded: true }, null, left.at)).toBeNull();
});

test("once per destination in 120 s: a file that stays missing never makes the page loop", () => {
  const now = left.at + 300;
  const justTried = { to: TO, at: now - 5_000 };
  expect(destinationAfterReload(left, { href: FROM, reloaded: true }, justTried, now)).toBeNull();
  expect(mayRetry(TO, justTried, now)).toBe(false);
  // Another destination, or the same one more than 120 s later, may be tried.
  expect(mayRetry("https://portail.example/settings", justTried, now)).toBe(true);
  expect(mayRetry(TO, { to: TO, at: now - CHUNK_LOAD_TIMEOUT_MS - 1 }, now)).toBe(true);
  expect(destinationAfterReload(left, { href: FROM, reloaded: true }, { to: TO, at: now - 121_000 }, now)).toBe(TO);
});
