import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { secretPathMasker } from "../app/.server/logger";

/**
 * What the server needs to know of the build's route tree (the tree of app/routes.ts) before React
 * Router runs: each route's full pattern (to mask secrets in logged paths) and whether a POST has an
 * action to reach (to refuse it with the French 405 page instead of React Router's English one).
 */
interface TreeRoute {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children: TreeRoute[];
}

export interface RouteTree {
  patterns: string[];
  maskPath(pathname: string): string;
  /** Whether a POST to this path (with its query, for `?index`) reaches a route that has an action. */
  postHasAction(pathname: string, search: string): boolean;
}

const trees = new WeakMap<ServerBuild, RouteTree>();

export function routeTreeOf(build: ServerBuild): RouteTree {
  let tree = trees.get(build);
  if (!tree) {
    tree = makeRouteTree(build);
    trees.set(build, tree);
  }
  return tree;
}

function makeRouteTree(build: Pick<ServerBuild, "routes">): RouteTree {
  const fullPath = (id: string | undefined): string => {
    const route = id ? build.routes[id] : undefined;
    if (!route) return "";
    return [fullPath(route.parentId), route.path ?? ""].filter(Boolean).join("/");
  };
  const patterns = Object.keys(build.routes).map(fullPath);

  const nodes = new Map<string, TreeRoute>();
  for (const [id, route] of Object.entries(build.routes)) {
    nodes.set(id, { id, path: route?.path, index: route?.index, caseSensitive: route?.caseSensitive, children: [] });
  }
  const top: TreeRoute[] = [];
  for (const [id, route] of Object.entries(build.routes)) {
    const node = nodes.get(id)!;
    const parent = route?.parentId ? nodes.get(route.parentId) : undefined;
    (parent ? parent.children : top).push(node);
  }
  const hasAction = (id: string) => Boolean(build.routes[id]?.module.action);

  return {
    patterns,
    maskPath: secretPathMasker(patterns),
    postHasAction(pathname, search) {
      // `.data` requests are the same routes; `/_root.data` is the home page's.
      let path = pathname.replace(/\.data$/, "");
      if (path === "/_root") path = "/";
      const matches = matchRoutes(top as unknown as RouteObject[], path);
      if (!matches?.length) return false;
      // React Router's target: the index route only with a bare `?index`, else the deepest route
      // that has a path of its own (pathless layouts and index routes contribute none).
      const last = matches[matches.length - 1]!;
      if (last.route.index && new URLSearchParams(search).getAll("index").some((v) => v === ""))
        return hasAction(last.route.id!);
      const contributing = matches.filter((m, i) => i === 0 || (m.route.path && m.route.path.length > 0));
      return hasAction(contributing[contributing.length - 1]!.route.id!);
    },
  };
}
