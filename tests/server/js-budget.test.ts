import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { JS_BUDGET_KB, jsByRoute } from "../../scripts/bench/js-budget";

/**
 * Every route's JavaScript within DESIGN.md §6's budget (issue 35, decision 0073), measured as `npm run
 * bench` measures it: the client entry, the route and each of its parents with their imports, from the
 * production build's manifest, gzip -9. npm test builds before vitest runs. A wizard's part loaded on demand
 * (decision 0080) is not in the manifest's imports: the bench's "JavaScript the page loads" counts it.
 */
const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../build/client");

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

// Skipped only when there is no build to measure (vitest run alone before `npm run build`); npm test builds first.
describe.skipIf(!existsSync(path.join(clientDir, "assets")))(
  "JavaScript by route (skipped without build/client: run `npm run build` first)",
  () => {
    test("every route loads at most the budget", () => {
      const routes = jsByRoute(clientDir);
      expect(routes.length).toBeGreaterThan(50);
      const over = routes.filter(({ gzip }) => kb(gzip) > JS_BUDGET_KB).map(({ id, gzip }) => `${id} ${kb(gzip)} KB`);
      expect(over).toEqual([]);
    });
  },
);
