import type { Request } from "express";
import { ClusterMemoryStoreWorker } from "@express-rate-limit/cluster-memory-store";
import { rateLimit, type RateLimitRequestHandler } from "express-rate-limit";

/** Paths where a guess could be made: sign-in, codes, reveals, password, activation and account-change flows. */
export const SENSITIVE_PATH =
  /^\/(login|lost-password|reset-password|activate|user-confirmation|force-change-password|onboarding|secure-account|settings\/profile|settings\/security|sandbox-processor)(\/|$)|\/(code|reveal|pin|otp|unlock-pin)(\/|$)/;

export interface RateLimitOptions {
  /** Sensitive POSTs per IP per window. */
  sensitivePerWindow: number;
  /** Any request per IP per window. */
  generalPerWindow: number;
  windowMs: number;
  /** Counts kept by the cluster's primary process, so that every worker sees the same totals. */
  sharedAcrossWorkers?: boolean;
}

export const DEFAULT_RATE_LIMITS: RateLimitOptions = { sensitivePerWindow: 30, generalPerWindow: 3000, windowMs: 5 * 60 * 1000 };

const message = (res: { status: (n: number) => { type: (t: string) => { send: (b: string) => void } } }, minutes: number) =>
  res
    .status(429)
    .type("text/html; charset=utf-8")
    .send(
      `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Trop de tentatives – Portail Avantages</title></head>` +
        `<body><main><h1>Trop de tentatives</h1><p>Par sécurité, patientez ${minutes} minutes avant de réessayer.</p>` +
        `<p><a href="/">Revenir à l’accueil</a></p></main></body></html>`,
    );

export function createRateLimits(options: RateLimitOptions): { sensitive: RateLimitRequestHandler; general: RateLimitRequestHandler } {
  const minutes = Math.ceil(options.windowMs / 60000);
  const store = (prefix: string) => (options.sharedAcrossWorkers ? { store: new ClusterMemoryStoreWorker({ prefix }) } : {});
  const sensitive = rateLimit({
    ...store("sensitive"),
    windowMs: options.windowMs,
    limit: options.sensitivePerWindow,
    standardHeaders: "draft-7",
    legacyHeaders: false,
    skip: (req: Request) => req.method !== "POST" || !SENSITIVE_PATH.test(req.path),
    handler: (_req, res) => message(res, minutes),
  });
  const general = rateLimit({
    ...store("general"),
    windowMs: options.windowMs,
    limit: options.generalPerWindow,
    standardHeaders: "draft-7",
    legacyHeaders: false,
    // Hashed assets are cheap and cached; do not count them.
    skip: (req: Request) => req.path.startsWith("/assets/"),
    handler: (_req, res) => message(res, minutes),
  });
  return { sensitive, general };
}
