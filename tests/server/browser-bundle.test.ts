import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

/**
 * The production build's browser code (needs `npm run build` first; npm test builds). Forms are checked
 * on the server (decision 0021: the page renders conform's reply), so the browser never needs zod: a
 * page whose route module reads a constant from a module that also builds a schema at its top level
 * ships zod with it, 24 KB gzip (decision 0044). Schemas live in `*-schemas.ts`, constants elsewhere.
 */
const assets = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../build/client/assets");

test("no browser script carries zod", () => {
  const scripts = readdirSync(assets).filter((name) => name.endsWith(".js"));
  expect(scripts.length).toBeGreaterThan(10);
  // zod 4 names its classes at run time ("$ZodType", "$ZodObject"): the names survive minification.
  const withZod = scripts.filter((name) => readFileSync(path.join(assets, name), "utf8").includes("$ZodType"));
  expect(withZod).toEqual([]);
});
