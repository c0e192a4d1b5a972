import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";

/** Every catalogue key written in the code ("errors.codeInvalid", t("nav.cards")…) exists in French. */
type Tree = { [key: string]: string | Tree };
const root = path.resolve(import.meta.dirname, "../..");
const fr = JSON.parse(readFileSync(path.join(root, "locales/fr/translation.json"), "utf8")) as Tree;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    // Queries name columns like "cards.id": the database layer holds no catalogue keys.
    if (statSync(full).isDirectory()) return full.endsWith(path.join(".server", "db")) ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

test("no key used in the code is missing from the French catalogue", () => {
  const namespaces = Object.keys(fr).join("|");
  const literal = new RegExp(`["'\`]((?:${namespaces})\\.[A-Za-z0-9_.]+)["'\`]`, "g");
  const missing: string[] = [];
  for (const file of sourceFiles(path.join(root, "app"))) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(literal)) {
      const key = match[1]!;
      if (/_|\.id$/.test(key)) continue; // a column (snake_case), never a catalogue key (camelCase)
      const value = key.split(".").reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], fr);
      // The section a code is looked up in (`frenchWordsOf("notificationCentre.types", type, …)`) holds keys.
      const section = text.slice(Math.max(0, match.index - 14), match.index) === "frenchWordsOf(";
      if (section ? typeof value !== "object" : typeof value !== "string")
        missing.push(`${path.relative(root, file)}: ${key}`);
    }
  }
  expect(missing).toEqual([]);
});
