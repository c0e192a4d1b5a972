import { readFileSync } from "node:fs";
import { expect, test } from "vitest";

type Tree = { [key: string]: string | Tree };
const load = (lng: string) =>
  JSON.parse(readFileSync(new URL(`../../locales/${lng}/translation.json`, import.meta.url), "utf8")) as Tree;

function keysOf(tree: Tree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === "string" ? [`${prefix}${k}`] : keysOf(v, `${prefix}${k}.`),
  );
}

function valueAt(tree: Tree, key: string): unknown {
  return key.split(".").reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], tree);
}

const fr = keysOf(load("fr")).sort();

test.each(["en", "nl"])("the %s catalogue has exactly the French keys", (lng) => {
  const other = keysOf(load(lng)).sort();
  expect(
    other.filter((k) => !fr.includes(k)),
    `keys only in ${lng}`,
  ).toEqual([]);
  expect(
    fr.filter((k) => !other.includes(k)),
    `keys missing from ${lng}`,
  ).toEqual([]);
});

test.each(["fr", "en", "nl"])("no empty message in %s", (lng) => {
  const tree = load(lng);
  const empty = keysOf(tree).filter((key) => {
    const value = valueAt(tree, key);
    return typeof value !== "string" || value.trim() === "";
  });
  expect(empty).toEqual([]);
});

test.each(["en", "nl"])("the %s catalogue keeps every {{placeholder}} of the French text", (lng) => {
  const tree = load(lng);
  const french = load("fr");
  const placeholders = (s: unknown) => [...String(s).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
  const broken = fr.filter(
    (key) => placeholders(valueAt(tree, key)).join() !== placeholders(valueAt(french, key)).join(),
  );
  expect(broken).toEqual([]);
});

// Issue 13, finding 12: a pending sign-in lasts 15 minutes, so its code's words give the time it ends,
// never the code's own hour.
test.each(["fr", "en", "nl"])("the sign-in code's hint and message in %s say until when, not an hour", (lng) => {
  const tree = load(lng);
  for (const key of ["auth.code.signInHint", "auth.code.messageText"]) {
    const text = valueAt(tree, key) as string;
    expect(text, key).toContain("{{time}}");
    expect(text, key).not.toMatch(/1 heure|1 hour|1 uur/);
  }
  expect(valueAt(tree, "auth.code.signInHint") as string).toContain("{{minutes}}");
});
