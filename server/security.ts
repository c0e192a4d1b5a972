import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import helmet from "helmet";
import { requestSite } from "../app/routes/+shared/same-site.server";
import { uploadLimitsFor, uploadReadLimit, type UploadLimits } from "../app/routes/+shared/upload-routes";
import { STRIPE_WEBHOOK_PATH } from "../app/domain/stripe-issuing";
import { EVENTS_PATH, TAG_MANAGER_ORIGIN } from "../app/domain/tag-events";
import { sendErrorPage } from "./error-page";

/** A fresh nonce per response, used by the enforced Content-Security-Policy below. */
export function assignNonce(_req: Request, res: Response, next: NextFunction) {
  res.locals.nonce = randomBytes(16).toString("base64");
  next();
}

/** Stripe.js and its frames, allowed only when Stripe is the processor (Elements, Issuing Elements). */
const STRIPE = {
  script: ["https://js.stripe.com"],
  frame: ["https://js.stripe.com", "https://hooks.stripe.com"],
  connect: ["https://api.stripe.com"],
};

/** Crisp's chat widget (crisp-sdk-web), allowed only when the support chat is Crisp (CRISP_WEBSITE_ID). */
const CRISP = {
  script: ["https://client.crisp.chat"],
  style: ["https://client.crisp.chat"],
  img: ["https://client.crisp.chat", "https://image.crisp.chat", "https://storage.crisp.chat"],
  font: ["https://client.crisp.chat"],
  connect: ["https://client.crisp.chat", "https://storage.crisp.chat", "wss://client.relay.crisp.chat"],
  frame: ["https://game.crisp.chat"],
};

/**
 * Google Tag Manager's container script and its own requests, allowed only when a container id is
 * configured (TAG_MANAGER_ID other than `sandbox`, decision 0031). The tags the container loads from
 * other origins need those origins added here by whoever adds the tags.
 */
const TAG_MANAGER = {
  script: [TAG_MANAGER_ORIGIN],
  img: [TAG_MANAGER_ORIGIN],
  connect: [TAG_MANAGER_ORIGIN],
};

export function securityHeaders({
  development,
  stripe = false,
  crisp = false,
  sentryOrigin,
  tagManager = false,
}: {
  development: boolean;
  stripe?: boolean;
  crisp?: boolean;
  /** Where the browser sends its error reports (SENTRY_DSN's origin); unset: nowhere. */
  sentryOrigin?: string;
  /** A Google Tag Manager container is configured: its script may load. */
  tagManager?: boolean;
}) {
  const nonce = (_req: unknown, res: unknown) => `'nonce-${(res as Response).locals.nonce as string}'`;
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": [
          "'self'",
          nonce,
          ...(stripe ? STRIPE.script : []),
          ...(crisp ? CRISP.script : []),
          ...(tagManager ? TAG_MANAGER.script : []),
        ],
        "style-src": [
          ...(development ? ["'self'", "'unsafe-inline'"] : ["'self'", nonce]),
          ...(crisp ? CRISP.style : []),
        ],
        "img-src": ["'self'", "data:", ...(crisp ? CRISP.img : []), ...(tagManager ? TAG_MANAGER.img : [])],
        "font-src": ["'self'", ...(crisp ? CRISP.font : [])],
        "connect-src": [
          ...(development ? ["'self'", "ws:"] : ["'self'"]),
          ...(stripe ? STRIPE.connect : []),
          ...(crisp ? CRISP.connect : []),
          ...(sentryOrigin ? [sentryOrigin] : []),
          ...(tagManager ? TAG_MANAGER.connect : []),
        ],
        "frame-src": ["'self'", ...(stripe ? STRIPE.frame : []), ...(crisp ? CRISP.frame : [])],
        // The push service worker (public/sw.js) and nothing else: without it, the script sources above.
        "worker-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: development ? false : { maxAge: 31536000, includeSubDomains: true },
  });
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses form posts from other sites (CSRF), by the one notion of "this site" the loaders use too
 * (requestSite, decision 0048): the browser's Sec-Fetch-Site when it sends one, the Origin header, else
 * the Referer. Requests with none of them (curl, old browsers) still need the SameSite=Lax session
 * cookie to do anything. Not Stripe's webhook (exactly its path): another site by nature, it acts on no
 * session and proves itself by its signature (decision 0036).
 */
export function refuseCrossSitePosts(req: Request, res: Response, next: NextFunction) {
  if (SAFE_METHODS.has(req.method)) return next();
  if (req.method === "POST" && req.path === STRIPE_WEBHOOK_PATH) return next();
  if (requestSite((name) => req.get(name)) === "otherSite") return forbidden(res);
  next();
}

function forbidden(res: Response) {
  sendErrorPage(res, 403);
}

/** What the portal answers: pages (GET, HEAD) and its own forms (POST). */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST"] as const;
const ALLOWED = new Set<string>(ALLOWED_METHODS);
/** The bodies a browser sends for the portal's forms, with or without JavaScript. */
const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/** The routes that take files, and their limits (app/routes/+shared/upload-routes.ts). */
export type UploadLimitsOf = (pathname: string) => UploadLimits | null;

/**
 * Only the portal's own kinds of request reach the routes: any other method is a 405 (React Router
 * would run the POST action for PUT, PATCH and DELETE, and fails on TRACE), and a POST must carry a
 * form (415 for JSON, text, XML or no type at all; a link's `text/ping` only at EVENTS_PATH). Files
 * (multipart) only where a route takes them (415 elsewhere: the portal's other forms are url-encoded);
 * a multipart body needs its boundary.
 */
export function acceptOnlyForms(uploadLimitsOf: UploadLimitsOf = uploadLimitsFor) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!ALLOWED.has(req.method)) {
      res.set("Allow", ALLOWED_METHODS.join(", "));
      return sendErrorPage(res, 405);
    }
    if (req.method !== "POST") return next();
    const type = (req.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
    // A link's `ping` (the tag manager's clicks, decision 0031): the browser's own body, read by nobody.
    if (type === "text/ping" && req.path === EVENTS_PATH) return next();
    // Stripe's events (decision 0036): no parser runs before the route, which checks the signature on the raw body.
    if (type === "application/json" && req.path === STRIPE_WEBHOOK_PATH) return next();
    if (!FORM_TYPES.includes(type)) return sendErrorPage(res, 415);
    if (type === "multipart/form-data") {
      if (!uploadLimitsOf(req.path)) return sendErrorPage(res, 415);
      if (!/;\s*boundary=("?)[^";]+\1/i.test(req.get("Content-Type")!)) return sendErrorPage(res, 400);
    }
    next();
  };
}

/**
 * Bodies above the limit are refused before anything reads them: `maxBytes` for forms, and for a
 * route that takes files twice what its files may weigh (uploadReadLimit: a file somewhat too big is
 * read and answered in French on its field); the route's parser (parseUploadForm) keeps no more than
 * the files' weight (maxFiles × maxFileSize + 64 KB) while it streams, whatever the length announced.
 */
export function limitBodySize(maxBytes: number, uploadLimitsOf: UploadLimitsOf = uploadLimitsFor) {
  return (req: Request, res: Response, next: NextFunction) => {
    const length = Number(req.get("Content-Length") ?? 0);
    const uploads = SAFE_METHODS.has(req.method) ? null : uploadLimitsOf(req.path);
    if (length > (uploads ? uploadReadLimit(uploads) : maxBytes)) {
      return sendErrorPage(res, 413);
    }
    if (!SAFE_METHODS.has(req.method) && !req.get("Content-Length") && req.get("Transfer-Encoding")) {
      // Forms always send a length; an unbounded stream is not something the portal accepts.
      return sendErrorPage(res, 411);
    }
    next();
  };
}
