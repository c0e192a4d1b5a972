import { createRequestHandler } from "@react-router/express";
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import type { Cookie, RouterContext, RouterContextProvider, ServerBuild } from "react-router";
import type { Platform } from "../app/.server/platform";
import { sessionCookie, signedInSessionKey } from "../app/.server/session";
import type { RequestInfo } from "../app/context";
import { compressResponses } from "./compression";
import { sendErrorPage } from "./error-page";
import { lingerOnUnreadBodies } from "./linger";
import { routeTreeOf } from "./route-tree";
import { acceptOnlyForms, assignNonce, limitBodySize, refuseCrossSitePosts, securityHeaders } from "./security";
import { createRateLimits, DEFAULT_RATE_LIMITS, type RateLimitOptions } from "./rate-limits";
import { metricsEndpoint, requestMetrics } from "./metrics";
import { watchOutbox } from "../app/.server/metrics";

/** What server.ts finds in the app bundle (see app/entry.server.tsx `serverRuntime`). */
export interface ServerRuntime {
  requestInfoContext: RouterContext<RequestInfo>;
  getPlatform(): Promise<Platform>;
  /** The bundle's own class: React Router checks the context with instanceof. */
  RouterContextProvider: typeof RouterContextProvider;
}

export interface ServerAppOptions {
  /** The built app, or a loader of it (the dev server reloads it on change). */
  loadBuild: () => Promise<ServerBuild>;
  /** Static files: the built client folder in production; none under Vite. */
  clientDir?: string;
  /** Vite's middlewares in development. */
  devMiddleware?: express.RequestHandler;
  development: boolean;
  trustProxy: boolean;
  rateLimits?: RateLimitOptions;
  maxBodyBytes?: number;
  /** Stripe is the card issuer and processor: its scripts and frames are allowed by the CSP. */
  stripe?: boolean;
  /** Crisp is the support chat: its widget's script, styles and sockets are allowed by the CSP. */
  crisp?: boolean;
  /** The origin of SENTRY_DSN, when error reporting runs in the browser: the CSP lets it be reached. */
  sentryOrigin?: string;
  /** A Google Tag Manager container is configured (TAG_MANAGER_ID, not the sandbox): its script is allowed. */
  tagManager?: boolean;
  /** METRICS_TOKEN: GET /metrics answers Prometheus with this bearer token (decision 0064); unset: no endpoint. */
  metricsToken?: string;
  log: Platform["logger"];
}

function runtimeOf(build: ServerBuild): ServerRuntime {
  return (build.entry.module as unknown as { serverRuntime: ServerRuntime }).serverRuntime;
}

export function createServerApp(options: ServerAppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", options.trustProxy ? 1 : false);

  app.use(assignNonce);
  // First, so that every answer given before its request's body was read ends with a lingering close.
  app.use(lingerOnUnreadBodies());
  const headers = securityHeaders({
    development: options.development,
    stripe: options.stripe,
    crisp: options.crisp,
    sentryOrigin: options.sentryOrigin,
    tagManager: options.tagManager,
  });
  // The sandbox issuer's reveal document sets its own, framable policy (the issuer's, not the portal's).
  // The sandbox providers' own documents set their own headers (framed by the portal).
  app.use((req, res, next) =>
    req.path.startsWith("/sandbox-issuer/") || req.path.startsWith("/sandbox-processor/")
      ? next()
      : headers(req, res, next),
  );
  app.use(compressResponses());
  app.use(requestLog(options.log, options.loadBuild));
  if (options.metricsToken) {
    // Before the request limits: a scrape is never refused, and never timed in its own figures.
    app.use(requestMetrics(options.loadBuild));
    watchOutbox(async () => (await runtimeOf(await options.loadBuild()).getPlatform()).db);
    app.get("/metrics", metricsEndpoint(options.metricsToken));
  }

  // Signed-in requests are counted per session, anonymous ones per address (decision 0014).
  const cookies = new WeakMap<Platform, Cookie>();
  const sessionOf = async (req: Request) => {
    const platform = await runtimeOf(await options.loadBuild()).getPlatform();
    let cookie = cookies.get(platform);
    if (!cookie) cookies.set(platform, (cookie = sessionCookie(platform.env)));
    return signedInSessionKey(platform.db, cookie, req.headers.cookie);
  };
  for (const limit of createRateLimits(options.rateLimits ?? DEFAULT_RATE_LIMITS, sessionOf)) app.use(limit);

  app.get("/healthz", async (_req, res) => {
    try {
      const platform = await runtimeOf(await options.loadBuild()).getPlatform();
      await platform.ping();
      res.set("Cache-Control", "no-store").json({ status: "ok", database: platform.database.kind });
    } catch (err) {
      options.log.error("health check failed", { err });
      // The process is up but cannot serve: the load balancer sends traffic elsewhere until it says ok again.
      res.status(503).set("Cache-Control", "no-store").json({ status: "degraded", database: "unreachable" });
    }
  });

  if (options.devMiddleware) app.use(options.devMiddleware);
  if (options.clientDir) {
    // Hashed file names: safe to cache for a year.
    app.use("/assets", express.static(`${options.clientDir}/assets`, { immutable: true, maxAge: "1y", index: false }));
    // Other public files are few and known: no file-system lookup for every page request.
    const publicFiles = express.static(options.clientDir, { maxAge: "1h", index: false });
    app.use((req, res, next) =>
      /^\/[\w.-]+\.(svg|ico|png|txt|webmanifest)$/.test(req.path) ? publicFiles(req, res, next) : next(),
    );
    // The push service worker (public/sw.js, issue 33): revalidated on every load, so a new version reaches
    // the browsers at once. At the root, its scope is the whole portal without a Service-Worker-Allowed header.
    app.get("/sw.js", express.static(options.clientDir, { maxAge: 0, index: false }));
  }

  // Nothing the portal renders may be kept by a browser or a proxy: pages and their `.data` carry
  // account, card and code data, and public pages carry single-use links and a per-response nonce.
  // A route that serves something public (the catalogue) says so itself.
  app.use(noStoreByDefault);
  app.use(refuseCrossSitePosts);
  app.use(limitBodySize(options.maxBodyBytes ?? 12 * 1024 * 1024));
  app.use(acceptOnlyForms());

  // One handler per build: making it compiles the route tree, too costly to do on every request.
  const handlers = new WeakMap<ServerBuild, ReturnType<typeof createRequestHandler>>();
  const handlerFor = (build: ServerBuild) => {
    let handler = handlers.get(build);
    if (!handler) {
      const runtime = runtimeOf(build);
      handler = createRequestHandler({
        build,
        mode: options.development ? "development" : "production",
        getLoadContext: (_req, response) => {
          const context = new runtime.RouterContextProvider();
          context.set(runtime.requestInfoContext, { nonce: response.locals.nonce as string });
          return context;
        },
      });
      handlers.set(build, handler);
    }
    return handler;
  };

  // No Express route pattern: Express would decode the path's parameters and fail with a 500 on a
  // malformed escape (`%E0%A4%A`); React Router reads the path itself.
  app.use(async (req, res, next) => {
    try {
      const build = await options.loadBuild();
      if (req.method === "POST" && !routeTreeOf(build).postHasAction(req.path, req.url.slice(req.path.length))) {
        // Nothing to post to here: the French 405 page rather than React Router's English error.
        res.set("Allow", "GET, HEAD");
        return sendErrorPage(res, 405);
      }
      await handlerFor(build)(req, res, next);
    } catch (err) {
      next(err);
    }
  });

  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    void options
      .loadBuild()
      .then((build) =>
        options.log.error("unhandled error", { err, method: req.method, path: routeTreeOf(build).maskPath(req.path) }),
      );
    if (res.headersSent) return;
    sendErrorPage(res, 500);
  });
  return app;
}

/**
 * Decided as the headers leave: `Cache-Control: no-store` on every answer that did not set its own;
 * and an answer sent before its request's body was read (a refusal, a redirect that needed no form)
 * closes the connection, which would otherwise wait for a body nobody reads.
 */
function noStoreByDefault(req: Request, res: Response, next: NextFunction) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<Response["writeHead"]>) {
    if (!this.hasHeader("Cache-Control")) this.setHeader("Cache-Control", "no-store");
    if (!req.complete && req.method !== "GET" && req.method !== "HEAD") this.setHeader("Connection", "close");
    return writeHead.apply(this, args);
  } as Response["writeHead"];
  next();
}

/**
 * One line per request: method, path (never the query, which may carry an e-mail or a code; a link's
 * token or a single-use key in the path is written as its parameter's name), status, time.
 */
function requestLog(log: Platform["logger"], loadBuild: () => Promise<ServerBuild>) {
  return (req: Request, res: Response, next: NextFunction) => {
    const start = process.hrtime.bigint();
    res.on("finish", () => {
      if (req.path.startsWith("/assets/")) return;
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      void loadBuild().then((build) =>
        log.info("request", {
          method: req.method,
          path: routeTreeOf(build).maskPath(req.path),
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
        }),
      );
    });
    next();
  };
}
