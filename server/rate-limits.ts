import { sendErrorPage } from "./error-page";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { ClusterMemoryStoreWorker } from "@express-rate-limit/cluster-memory-store";
import { ipKeyGenerator, rateLimit, type Store } from "express-rate-limit";
import type { DB } from "../app/.server/db";
import { DatabaseRateLimitStore } from "../app/.server/db/rate-limit-store";
import type { Env } from "../app/.server/env";
import { countRateLimitRefusal, type RateLimitName } from "../app/.server/metrics";

/**
 * Request limits that fit a company (decision 0014): a signed-in request is counted against its
 * session, whatever its address (an office shares one); only anonymous requests are counted per
 * address. Guesses of passwords and codes are also limited per account, in the services.
 */

/** Paths where a guess could be made: sign-in, codes, reveals, password, activation and account-change flows. */
export const SENSITIVE_PATH =
  /^\/(login|lost-password|reset-password|activate|user-confirmation|force-change-password|onboarding|secure-account|settings\/profile|settings\/security|sandbox-processor)(\/|$)|\/(code|reveal|pin|otp|unlock-pin)(\/|$)/i;

/** The sensitive paths of flows without a signed-in session: always counted per address, cookie or not. */
export const ANONYMOUS_FLOW_PATH =
  /^\/(login|lost-password|reset-password|activate|user-confirmation|force-change-password)(\/|$)/i;

/**
 * The path as the router will match it: percent-decoded, repeated slashes collapsed and the `.data`
 * of JavaScript-enabled requests removed (`POST /login.data` is a sign-in too). Case is ignored by
 * the patterns above, as by the router.
 */
export function routePath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // a malformed escape: match the raw path
  }
  return decoded.replace(/\/{2,}/g, "/").replace(/\.data$/i, "");
}

export interface RateLimitOptions {
  /** false lifts every request limit (RATE_LIMITS=off, for load measurements). */
  enabled: boolean;
  windowMs: number;
  /** Any request per address per window, without a signed-in session. */
  anonymousPerWindow: number;
  /** Any request per signed-in session per window. */
  sessionPerWindow: number;
  /** Sensitive posts per address per window: the sign-in flows, and any sensitive post without a session. */
  sensitivePerWindow: number;
  /** Sensitive posts per signed-in session per window (reveal, PIN, profile, security…). */
  sessionSensitivePerWindow: number;
  /** SQLite with workers: counts kept by the cluster's primary process, so every worker sees the same totals. */
  sharedAcrossWorkers?: boolean;
  /** PostgreSQL: counts kept in this database, so every worker and machine sees the same totals. */
  database?: DB;
}

export const DEFAULT_RATE_LIMITS: RateLimitOptions = {
  enabled: true,
  windowMs: 5 * 60 * 1000,
  anonymousPerWindow: 3000,
  sessionPerWindow: 3000,
  sensitivePerWindow: 200,
  sessionSensitivePerWindow: 60,
};

/** The limits the environment sets. */
export function rateLimitsOf(
  env: Env,
  where: Pick<RateLimitOptions, "sharedAcrossWorkers" | "database">,
): RateLimitOptions {
  return {
    enabled: env.RATE_LIMITS === "on",
    windowMs: env.RATE_LIMIT_WINDOW_SECONDS * 1000,
    anonymousPerWindow: env.RATE_LIMIT_ANONYMOUS,
    sessionPerWindow: env.RATE_LIMIT_SESSION,
    sensitivePerWindow: env.RATE_LIMIT_SENSITIVE,
    sessionSensitivePerWindow: env.RATE_LIMIT_SESSION_SENSITIVE,
    ...where,
  };
}

/** The signed-in session of a request (the hash of its id), or null: anonymous. */
export type SessionOf = (req: Request) => Promise<string | null>;

interface Requester {
  /** Set for a signed-in session. */
  session: string | null;
  path: string;
}

const requesterOf = (res: Response): Requester => res.locals.requester as Requester;
const addressOf = (req: Request) => `ip:${ipKeyGenerator(req.ip ?? "unknown")}`;
/** Not counted: hashed assets (cheap, cached) and the load balancer's health checks. */
const uncounted = (req: Request) => req.path.startsWith("/assets/") || req.path === "/healthz";
const reading = (req: Request) => req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS";

/** The 429 page of a limit, counted in the metrics under the limit's name (decision 0064). */
const tooMany = (limit: RateLimitName) => (req: Request, res: Response) => {
  countRateLimitRefusal(limit);
  const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
  const minutes = Math.max(1, Math.ceil(((reset?.getTime() ?? Date.now() + 60_000) - Date.now()) / 60_000));
  sendErrorPage(res, 429, `Par sécurité, patientez ${minutes} minute${minutes > 1 ? "s" : ""} avant de réessayer.`);
};

/**
 * The middleware, in order: who is asking (a signed-in session, checked against its signature and the
 * database, or an address), then the general limit, then the limit on sensitive posts.
 */
export function createRateLimits(options: RateLimitOptions, sessionOf: SessionOf): RequestHandler[] {
  if (!options.enabled) return [];
  const store = (prefix: string): { store?: Store } => {
    if (options.database) return { store: new DatabaseRateLimitStore(options.database, { prefix }) };
    if (options.sharedAcrossWorkers) return { store: new ClusterMemoryStoreWorker({ prefix }) };
    return {};
  };

  const identify = async (req: Request, res: Response, next: NextFunction) => {
    if (uncounted(req)) return next();
    let session: string | null = null;
    try {
      session = await sessionOf(req);
    } catch {
      // Unknown: counted as anonymous.
    }
    res.locals.requester = { session, path: routePath(req.path) } satisfies Requester;
    next();
  };

  const general = rateLimit({
    ...store("general"),
    windowMs: options.windowMs,
    limit: (_req, res) => (requesterOf(res).session ? options.sessionPerWindow : options.anonymousPerWindow),
    keyGenerator: (req, res) => {
      const { session } = requesterOf(res);
      return session ? `session:${session}` : addressOf(req);
    },
    standardHeaders: "draft-7",
    legacyHeaders: false,
    skip: uncounted,
    handler: tooMany("general"),
  });

  /** A sensitive post is counted against its session when signed in, unless it belongs to a sign-in flow. */
  const perSession = (res: Response) => {
    const { session, path } = requesterOf(res);
    return session !== null && !ANONYMOUS_FLOW_PATH.test(path);
  };
  const sensitive = rateLimit({
    ...store("sensitive"),
    windowMs: options.windowMs,
    limit: (_req, res) => (perSession(res) ? options.sessionSensitivePerWindow : options.sensitivePerWindow),
    keyGenerator: (req, res) => (perSession(res) ? `session:${requesterOf(res).session}` : addressOf(req)),
    standardHeaders: "draft-7",
    legacyHeaders: false,
    // Any method that is not a read: PUT, PATCH and DELETE reach the same actions as POST.
    skip: (req, res) => uncounted(req) || reading(req) || !SENSITIVE_PATH.test(requesterOf(res).path),
    handler: tooMany("sensitive"),
  });
  return [identify, general, sensitive];
}
