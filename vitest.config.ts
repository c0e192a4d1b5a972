import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    // Unit tests beside their modules; route actions, the server, the catalogues and the scripts under tests/.
    include: ["app/**/*.test.ts", "app/**/*.test.tsx", "tests/{routes,server,catalogues,scripts}/**/*.test.ts"],
    environment: "node",
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Each file opens its own database; files run one at a time on the 2-core machines.
    fileParallelism: false,
  },
});
