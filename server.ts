import "dotenv/config";
import cluster from "node:cluster";
import path from "node:path";
import { ClusterMemoryStorePrimary } from "@express-rate-limit/cluster-memory-store";
import { fileURLToPath } from "node:url";
import type { ServerBuild } from "react-router";
import { createLogger } from "./app/.server/logger";
import { ConfigError, getEnv } from "./app/.server/env";
import { browserErrorReporting } from "./app/.server/error-reporting";
import { tagManagerScriptUrl } from "./app/domain/tag-events";
import { createServerApp, type ServerRuntime } from "./server/app";
import { answerWorkersScrapes } from "./server/metrics";
import { rateLimitsOf } from "./server/rate-limits";
import { RestartBackoff } from "./server/worker-restarts";

/**
 * Entry point: `npm start` (built app) or `npm run dev` (Vite middleware, reloads on change).
 * Everything the routes use comes from the app bundle, so there is one platform per process.
 * With WEB_CONCURRENCY > 1 (production build only) a primary process prepares the database once,
 * keeps the rate-limit counts for everyone (on SQLite; PostgreSQL keeps them itself), and runs that
 * many workers (one per core is the aim).
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

  const clustered = !development && env.WEB_CONCURRENCY > 1;
  if (clustered && cluster.isPrimary) {
    // The database is ready (migrated, seeded) before any worker opens it; the primary serves nothing.
    const countsInMemory = env.RATE_LIMITS === "on" && platform.database.kind === "sqlite";
    await platform.close();
    // A worker's scrape of /metrics is answered with the sum of every worker's figures (decision 0064).
    if (env.METRICS_TOKEN) answerWorkersScrapes();
    // Workers must sign cookies alike: a sandbox without SESSION_SECRET shares the primary's random one.
    return runPrimary(env.WEB_CONCURRENCY, { SESSION_SECRET: env.sessionSecrets.join(",") }, log, countsInMemory);
  }

  const app = createServerApp({
    loadBuild,
    devMiddleware,
    clientDir: development ? undefined : path.join(root, "build/client"),
    development,
    trustProxy: env.TRUST_PROXY === "1",
    // PostgreSQL: the counts live in the database, shared by every machine; SQLite: in memory (the primary's with workers).
    rateLimits: rateLimitsOf(
      env,
      platform.database.kind === "postgres" ? { database: platform.db } : { sharedAcrossWorkers: clustered },
    ),
    stripe: Boolean(env.STRIPE_SECRET_KEY),
    crisp: Boolean(env.CRISP_WEBSITE_ID),
    tagManager: Boolean(env.TAG_MANAGER_ID && tagManagerScriptUrl(env.TAG_MANAGER_ID)),
    sentryOrigin: browserErrorReporting(env)?.origin,
    metricsToken: env.METRICS_TOKEN,
    log,
  });

  const server = app.listen(env.PORT, env.HOST, () => {
    if (cluster.isWorker) return;
    log.info("portal listening", {
      url: `http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${env.PORT}`,
      mode: env.APP_MODE,
      database: platform.database.kind,
    });
  });

  let stopping = false;
  // The primary gone (killed, crashed): it held the listening socket, so this worker can take no new
  // connection. Node ends the worker at once after this event (its own rule for an unexpected
  // disconnect); the supervisor restarts the whole service (decision 0048).
  cluster.worker?.on("disconnect", () => {
    if (!stopping && !cluster.worker?.exitedAfterDisconnect)
      log.error("primary gone, worker stopping", { pid: process.pid });
  });
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

/**
 * Keeps `count` workers serving and stops them all on SIGTERM/SIGINT; keeps the rate-limit counts of
 * every worker when they live in memory (SQLite). A worker that stops is replaced, after a wait that
 * grows while workers keep dying young (RestartBackoff, decision 0048); each start and stop is logged.
 */
function runPrimary(
  count: number,
  workerEnv: Record<string, string>,
  log: ReturnType<typeof createLogger>,
  countsInMemory: boolean,
) {
  if (countsInMemory) new ClusterMemoryStorePrimary().init();
  let stopping = false;
  const backoff = new RestartBackoff();
  /** The workers alive, by cluster id, with when each started. */
  const startedAt = new Map<number, number>();
  const pendingForks = new Set<NodeJS.Timeout>();
  const fork = () => {
    const worker = cluster.fork(workerEnv);
    startedAt.set(worker.id, Date.now());
    log.info("worker started", { pid: worker.process.pid });
  };
  for (let i = 0; i < count; i++) fork();
  let listening = 0;
  cluster.on("listening", (worker) => {
    log.info("worker listening", { pid: worker.process.pid });
    listening += 1;
    if (listening === count) log.info("portal listening", { workers: count });
  });
  cluster.on("exit", (worker, code, signal) => {
    const livedMs = Date.now() - (startedAt.get(worker.id) ?? Date.now());
    startedAt.delete(worker.id);
    if (stopping) {
      if (startedAt.size === 0) process.exit(0);
      return;
    }
    const delayMs = backoff.delayAfter(livedMs);
    log.error("worker stopped, starting another", {
      pid: worker.process.pid,
      exit: code,
      signal,
      livedMs,
      delayMs,
    });
    const timer = setTimeout(() => {
      pendingForks.delete(timer);
      if (!stopping) fork();
    }, delayMs);
    pendingForks.add(timer);
  });
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal, workers: startedAt.size });
    for (const timer of pendingForks) clearTimeout(timer);
    if (startedAt.size === 0) process.exit(0);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    setTimeout(() => process.exit(1), 12_000).unref();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
