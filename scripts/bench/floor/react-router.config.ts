import type { Config } from "@react-router/dev/config";

/** Built into the portal's own (ignored) build folder, never next to the sources. */
export default { ssr: true, buildDirectory: "../../../build/bench-floor" } satisfies Config;
