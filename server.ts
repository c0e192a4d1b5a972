import "dotenv/config";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerBuild } from "react-router";
import { createLogger } from "./app/.server/logger";
import { ConfigError, getEnv } from "./app/.server/env";
import { createServerApp, type ServerRuntime } from "./server/app";
import { DEFAULT_RATE_LIMITS } from "./server/rate-limits";

/**
 * Entry point: `npm start` (built app) or `npm run dev` (Vite middleware, reloads on change).
 * Everything the routes use comes from the app bundle, so there is one platform per process.
 */
const root = path.dirname(fileURLToPath(import.meta.url));
const development = process.env.NODE_ENV !== "production";

async function main() {
  let env;
  try {
    env = getEnv();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(env.LOG_LEVEL);

  let loadBuild: () => Promise<ServerBuild>;
  let devMiddleware;
  if (development) {
    const vite = await import("vite");
    const viteServer = await vite.createServer({ server: { middlewareMode: true }, appType: "custom" });
    devMiddleware = viteServer.middlewares;
    loadBuild = () => viteServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  } else {
    const buildPath = path.join(root, "build/server/index.js");
    const build = (await import(buildPath)) as ServerBuild;
    loadBuild = async () => build;
  }

  // Open the database, migrate and seed before accepting traffic.
  const runtime = (await loadBuild()).entry.module as unknown as { serverRuntime: ServerRuntime };
  const platform = await runtime.serverRuntime.getPlatform();

  const app = createServerApp({
    loadBuild,
    devMiddleware,
    clientDir: development ? undefined : path.join(root, "build/client"),
    development,
    trustProxy: env.TRUST_PROXY === "1",
    rateLimits: { ...DEFAULT_RATE_LIMITS, sensitivePerWindow: env.RATE_LIMIT_SENSITIVE },
    stripe: Boolean(env.STRIPE_SECRET_KEY),
    log,
  });

  const server = app.listen(env.PORT, env.HOST, () => {
    log.info("portal listening", { url: `http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${env.PORT}`, mode: env.APP_MODE, database: platform.database.kind });
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal });
    // Finish the requests in flight, then close the database.
    server.close(async () => {
      await platform.close();
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
