import type { ServerBuild } from "react-router";
import { expect, test } from "vitest";
import { routeTreeOf } from "../../server/route-tree";

/**
 * The route pattern a path reaches (`RouteTree.patternOf`), the metrics' `route` label (decision 0064): the
 * pattern, never the path; a path fitting several patterns ranked as React Router ranks them; the not-found
 * page's splat is null.
 */
type Routes = ServerBuild["routes"];
const route = (id: string, parentId: string | undefined, path?: string, index?: boolean) => ({
  [id]: { id, parentId, path, index, module: {} },
});
const routes = {
  ...route("root", undefined, ""),
  ...route("shell", "root"),
  ...route("home", "shell", undefined, true),
  ...route("cards", "shell", "cards"),
  ...route("cards-index", "cards", undefined, true),
  ...route("card", "cards", ":cardId"),
  ...route("card-index", "card", undefined, true),
  ...route("report", "card", "transactions/:authorizationId/report"),
  ...route("new-card", "cards", "new"),
  ...route("activate", "root", "activate/:token?"),
  ...route("lang", "root", ":lang?/help"),
  ...route("not-found-layout", "root"),
  ...route("not-found", "not-found-layout", "*"),
} as unknown as Routes;
const tree = routeTreeOf({ routes } as unknown as ServerBuild);

test.each([
  ["/", "/"],
  ["/_root.data", "/"],
  ["/cards", "/cards"],
  ["/cards/", "/cards"],
  ["/cards.data", "/cards"],
  ["/cards/card_8f2k", "/cards/:cardId"],
  ["/CARDS/card_8f2k.data", "/cards/:cardId"],
  ["/cards/card_8f2k/transactions/auth_77/report", "/cards/:cardId/transactions/:authorizationId/report"],
  ["/cards/card_8f2k/transactions/auth_77/report.data", "/cards/:cardId/transactions/:authorizationId/report"],
  // Fits both `/cards/new` and `/cards/:cardId`: the static segment wins, as in React Router.
  ["/cards/new", "/cards/new"],
  ["/activate", "/activate/:token?"],
  ["/activate/tok_secret", "/activate/:token?"],
  ["/help", "/:lang?/help"],
  ["/en/help", "/:lang?/help"],
  // Escapes: React Router decodes them, and so does the ranking it is left to.
  ["/%63ards/card_8f2k", "/cards/:cardId"],
  ["/nope/marie.martin@example.com", null],
  ["/cards/card_8f2k/unknown", null],
  ["/%E0%A4%A", null],
])("%s reaches %s", (path, pattern) => {
  expect(tree.patternOf(path)).toBe(pattern);
  // Kept: the same answer the second time.
  expect(tree.patternOf(path)).toBe(pattern);
});
