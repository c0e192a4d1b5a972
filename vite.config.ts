import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";

const appDir = fileURLToPath(new URL("./app", import.meta.url));

/**
 * Every page loads the root route, and every signed-in page the shell's layout: the app's own modules
 * those two import (components, domain helpers) travel in one file each instead of a dozen small ones.
 * On a slow mobile network each file is a round trip (HTTP/1.1, six connections), which Lighthouse
 * counts before the page's largest text shows; the bytes a page loads do not change (decision 0039).
 */
const shells = [
  { chunk: "shell", entry: `${appDir}/root.tsx` },
  { chunk: "signed-in", entry: `${appDir}/routes/shell/layout.tsx` },
];

type ModuleInfo = { importedIds: readonly string[] } | null;

function staticallyReachable(entry: string, getModuleInfo: (id: string) => ModuleInfo): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const next of getModuleInfo(id)?.importedIds ?? []) if (next.startsWith(appDir)) queue.push(next);
  }
  return seen;
}

let reachable: { chunk: string; modules: Set<string> }[] | undefined;

export default defineConfig({
  plugins: [reactRouter()],
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  build: {
    assetsInlineLimit: 0,
    rollupOptions: {
      output: {
        manualChunks(id, { getModuleInfo }) {
          // Vite's helper for dynamic imports, which the root uses: in the shell, else Rollup puts it in the
          // signed-in chunk and every public page (/login) loads that chunk, 3.9 KB, for it (issue 32).
          if (id.includes("vite/preload-helper")) return "shell";
          if (!id.startsWith(appDir) || /\/(root|entry\.client)\.tsx$|\/routes\//.test(id) || id.includes("?")) return;
          reachable ??= shells.map(({ chunk, entry }) => ({
            chunk,
            modules: staticallyReachable(entry, getModuleInfo),
          }));
          return reachable.find(({ modules }) => modules.has(id))?.chunk;
        },
      },
    },
  },
});
