/**
 * The JavaScript budget of DESIGN.md §6 (issue 35): what every route of a build loads, gzip -9, from the
 * build's own React Router manifest. `npm run bench` prints it; a test can read it after `npm run build`.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/** Every route's JavaScript, gzip, at most this many KB (1 KB = 1024 bytes). */
export const JS_BUDGET_KB = 130;

/** What React Router's browser manifest says of a route (build/client/assets/manifest-*.js). */
interface ManifestRoute {
  parentId?: string;
  module: string;
  imports?: string[];
  clientActionModule?: string;
  clientLoaderModule?: string;
  clientMiddlewareModule?: string;
  hydrateFallbackModule?: string;
}

export interface RouteJs {
  /** The route's id in the manifest (its file, e.g. "routes/cards/card"). */
  id: string;
  /** Bytes of gzip -9 of every script the route loads. */
  gzip: number;
}

/**
 * The JavaScript every route of the build in `clientDir` (a build's `build/client`) loads, gzip -9: the
 * client entry, then the route and each of its parents, with the modules each imports. Heaviest first.
 * Throws when the folder holds no React Router manifest.
 */
export function jsByRoute(clientDir: string): RouteJs[] {
  const dir = path.join(clientDir, "assets");
  const file = readdirSync(dir).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error(`${dir} has no React Router manifest`);
  const text = readFileSync(path.join(dir, file), "utf8");
  const manifest = JSON.parse(text.slice(text.indexOf("=") + 1).replace(/;\s*$/, "")) as {
    entry: { module: string; imports: string[] };
    routes: Record<string, ManifestRoute>;
  };
  const sizes = new Map<string, number>();
  const gzipOf = (asset: string) => {
    let size = sizes.get(asset);
    if (size === undefined)
      sizes.set(asset, (size = gzipSync(readFileSync(path.join(clientDir, asset)), { level: 9 }).length));
    return size;
  };
  return Object.keys(manifest.routes)
    .map((id) => {
      const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
      for (let route = manifest.routes[id]; route; route = route.parentId ? manifest.routes[route.parentId] : undefined)
        for (const asset of [
          route.module,
          ...(route.imports ?? []),
          route.clientActionModule,
          route.clientLoaderModule,
          route.clientMiddlewareModule,
          route.hydrateFallbackModule,
        ])
          if (asset) files.add(asset);
      return { id, gzip: [...files].reduce((total, asset) => total + gzipOf(asset), 0) };
    })
    .sort((a, b) => b.gzip - a.gzip);
}
