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
  /**
   * The pattern of the route a path reaches (`/cards/:cardId`, its `.data` request alike), for the metrics'
   * labels (decision 0064); null when only the not-found page's splat matches it.
   */
  patternOf(pathname: string): string | null;
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
  // React Router's matchRoutes flattens and ranks the whole tree on every call (a quarter of a webhook's time,
  // decision 0036): the answers are kept per path and query, the oldest dropped first.
  const answers = new Map<string, boolean>();
  const patternsByPath = new Map<string, string | null>();
  const compiled = compilePatterns(patterns);

  return {
    patterns,
    maskPath: secretPathMasker(patterns),
    postHasAction(pathname, search) {
      const key = `${pathname}?${search}`;
      let answer = answers.get(key);
      if (answer === undefined) {
        answer = findAction(pathname, search);
        if (answers.size >= POST_ANSWERS_KEPT) answers.delete(answers.keys().next().value!);
        answers.set(key, answer);
      }
      return answer;
    },
    patternOf(pathname) {
      let pattern = patternsByPath.get(pathname);
      if (pattern === undefined) {
        pattern = findPattern(pathname);
        if (patternsByPath.size >= POST_ANSWERS_KEPT) patternsByPath.delete(patternsByPath.keys().next().value!);
        patternsByPath.set(pathname, pattern);
      }
      return pattern;
    },
  };

  function matchesOf(pathname: string) {
    // `.data` requests are the same routes; `/_root.data` is the home page's.
    let path = pathname.replace(/\.data$/, "");
    if (path === "/_root") path = "/";
    return matchRoutes(top as unknown as RouteObject[], path);
  }

  /**
   * Most paths fit one pattern only (`/cards/card_1` fits `/cards/:cardId` and nothing else): that one, without
   * ranking the tree. A path that fits several (`/cards/new`), or none as written (escapes), is React Router's
   * to rank.
   */
  function findPattern(pathname: string): string | null {
    let path = pathname.replace(/\.data$/, "");
    if (path === "/_root") path = "/";
    const fitting = new Set(compiled.filter(({ regex }) => regex.test(path)).map(({ pattern }) => pattern));
    if (fitting.size === 1) return fitting.values().next().value!;
    const matches = matchesOf(pathname);
    const last = matches?.[matches.length - 1];
    if (!last || last.route.path === "*") return null;
    return "/" + fullPath(last.route.id);
  }

  function findAction(pathname: string, search: string): boolean {
    const matches = matchesOf(pathname);
    if (!matches?.length) return false;
    // React Router's target: the index route only with a bare `?index`, else the deepest route
    // that has a path of its own (pathless layouts and index routes contribute none).
    const last = matches[matches.length - 1]!;
    if (last.route.index && new URLSearchParams(search).getAll("index").some((v) => v === ""))
      return hasAction(last.route.id!);
    const contributing = matches.filter((m, i) => i === 0 || (m.route.path && m.route.path.length > 0));
    return hasAction(contributing[contributing.length - 1]!.route.id!);
  }
}

/**
 * A regular expression per route pattern, as React Router reads it: `:param` one segment, `?` an optional
 * segment, any case, trailing slashes. Splats are left out (only the not-found page has one).
 */
function compilePatterns(patterns: string[]): { pattern: string; regex: RegExp }[] {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return [...new Set(patterns)]
    .filter((pattern) => !pattern.split("/").includes("*"))
    .map((pattern) => {
      const source = pattern
        .split("/")
        .filter(Boolean)
        .map((segment) => {
          const optional = segment.endsWith("?");
          const name = optional ? segment.slice(0, -1) : segment;
          const one = name.startsWith(":") ? "/[^/]+" : `/${escape(name)}`;
          return optional ? `(?:${one})?` : one;
        })
        .join("");
      return { pattern: "/" + pattern, regex: new RegExp(`^${source}/*$`, "i") };
    });
}

/** Paths whose POST answer, and paths whose pattern, are kept (each a short string and a boolean or a pattern). */
const POST_ANSWERS_KEPT = 1000;
