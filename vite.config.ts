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

/**
 * The forms' common code in one file (decisions 0073, 0077): the reader of conform's answer every form's
 * `useForm` is, the fields' metadata helpers and the upload context. Every page with a form loads all of it,
 * 1.3 KB gzip; apart, it was three files. conform itself no longer reaches the browser: should it come back
 * (a value import of @conform-to in the app's browser code), it lands here, where the forms chunk's size shows it.
 */
const formModules = /\/node_modules\/@conform-to\/|\/app\/components\/forms\/(useForm|upload-context|meta)\.ts$/;

/** The form components (app/components/forms): public pages use them as much as signed-in ones. */
const formComponents = `${appDir}/components/forms/`;

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

/**
 * The modules the form components reach: the signed-in chunk leaves them out, else every public page with
 * a form (the cookie choices, an activation, the sandbox's terminal) loaded that whole chunk, 3.8 KB, for
 * the new-tab link of the choices' hints (decision 0073).
 */
function reachedByForms(getModuleInfo: (id: string) => ModuleInfo, moduleIds: Iterable<string>): Set<string> {
  const reached = new Set<string>();
  for (const id of moduleIds)
    if (id.startsWith(formComponents)) for (const next of staticallyReachable(id, getModuleInfo)) reached.add(next);
  return reached;
}

let reachable: { chunk: string; modules: Set<string> }[] | undefined;

export default defineConfig({
  plugins: [reactRouter()],
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  build: {
    assetsInlineLimit: 0,
    // Terser rather than esbuild: 3.4 KB gzip less on every page, most of it React Router's code, for some
    // seconds more of build (decision 0073).
    minify: "terser",
    terserOptions: { compress: { passes: 3 }, toplevel: true },
    rollupOptions: {
      output: {
        manualChunks(id, { getModuleInfo, getModuleIds }) {
          // Vite's helper for dynamic imports, which the root uses: in the shell, else Rollup puts it in the
          // signed-in chunk and every public page (/login) loads that chunk, 3.9 KB, for it (issue 32).
          if (id.includes("vite/preload-helper")) return "shell";
          if (formModules.test(id)) return "forms";
          if (!id.startsWith(appDir) || /\/(root|entry\.client)\.tsx$|\/routes\//.test(id) || id.includes("?")) return;
          if (!reachable) {
            const byForms = reachedByForms(getModuleInfo, getModuleIds());
            reachable = shells.map(({ chunk, entry }) => {
              const modules = staticallyReachable(entry, getModuleInfo);
              if (chunk === "signed-in") for (const formModule of byForms) modules.delete(formModule);
              return { chunk, modules };
            });
          }
          return reachable.find(({ modules }) => modules.has(id))?.chunk;
        },
      },
    },
  },
});
