import { createECDH } from "node:crypto";
import { z } from "zod";
import { DEFAULT_PUSH_SERVICE_HOSTS } from "../domain/push";

/** Every setting the portal reads, validated once at boot. Documented in .env.example. */
const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .pipe(z.url().optional())
  .optional();

/** Unset or blank: undefined. */
const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

/** A whole number ≥ 1, from its text; unset or blank: the default. */
const positiveInt = (fallback: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? Number(v) : fallback))
    .pipe(z.number({ error: "must be a whole number" }).int("must be a whole number").min(1, "must be at least 1"));

/** A number from min to max, from its text (a decimal point); unset or blank: the default. */
const boundedNumber = (fallback: number, min: number, max: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? Number(v) : fallback))
    .pipe(
      z.number({ error: "must be a number" }).min(min, `must be at least ${min}`).max(max, `must be at most ${max}`),
    );

/** The languages the portal has a catalogue for (locales/); the first one listed is the default. */
export const CATALOGUE_LOCALES = ["fr", "en", "nl"] as const;
export type Locale = (typeof CATALOGUE_LOCALES)[number];

/** A comma-separated list, each part trimmed and lower-cased, blanks dropped; unset or blank: `fallback`. */
const commaList = (fallback: readonly string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(",")
            .map((part) => part.trim().toLowerCase())
            .filter(Boolean)
        : [...fallback],
    );

/** A comma-separated list of catalogue languages, e.g. "fr,en"; unset or blank: French only (spec 000 §1). */
const localeList = commaList(["fr"])
  .pipe(
    z
      .array(z.enum(CATALOGUE_LOCALES, { error: `each language must be one of ${CATALOGUE_LOCALES.join(", ")}` }))
      .min(1, "needs at least one language"),
  )
  .transform((list) => [...new Set(list)]);

/** A comma-separated list of host names (push services' suffixes); unset or blank: the browsers' push services. */
const pushServiceHosts = commaList(DEFAULT_PUSH_SERVICE_HOSTS).pipe(
  z
    .array(
      z.string().regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, "each must be a host name"),
    )
    .min(1, "needs at least one host"),
);

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    APP_MODE: z.enum(["sandbox", "production"]).default("sandbox"),
    HOST: z.string().default("127.0.0.1"),
    /** "1": sandbox mode may listen on a public address (it publishes /dev/outbox and the demo accounts). */
    ALLOW_PUBLIC_SANDBOX: z.enum(["0", "1"]).default("0"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    DATABASE_URL: z.string().default("file:data/portal.sqlite"),
    SESSION_SECRET: z.string().optional(),
    TRUST_PROXY: z.enum(["0", "1"]).default("0"),
    PRODUCT_NAME: z.string().min(1).default("Portail Avantages"),
    /** The languages pages may be shown in, chosen per request from Accept-Language; the first is the fallback. */
    SUPPORTED_LOCALES: localeList,
    SMTP_URL: optionalUrl,
    MAIL_FROM: z.string().default("Portail Avantages <no-reply@portail.example>"),
    /** Brevo's API key: text messages go through Brevo's transactional SMS when set (required in production mode). */
    BREVO_API_KEY: optionalString,
    /** Brevo's API address (a local stand-in in tests). */
    BREVO_API_URL: z.url().default("https://api.brevo.com/v3"),
    /** The sender shown on the phone: 3 to 11 letters or digits, not all digits (French alphanumeric sender id). */
    SMS_SENDER: z
      .string()
      .trim()
      .regex(/^(?=.*[A-Za-z])[A-Za-z0-9]{3,11}$/, "SMS_SENDER must be 3 to 11 letters or digits, with a letter")
      .default("Portail"),
    /** How long Brevo may take to answer one text message before the attempt fails (the outbox tries again). */
    SMS_TIMEOUT_MS: positiveInt(5000),
    STATUS_BANNER_TEXT: z.string().default(""),
    STATUS_BANNER_COLOR: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, "STATUS_BANNER_COLOR must be a #rrggbb colour")
      .default("#fff4ce"),
    /** Product analytics: unset, none; `sandbox` (sandbox mode), events kept in the database; else a PostHog key. */
    ANALYTICS_KEY: z.string().trim().default(""),
    /** The PostHog instance of ANALYTICS_KEY (a local stand-in in tests). */
    ANALYTICS_HOST: z.url().default("https://eu.i.posthog.com"),
    /** The tag manager in the browser (decision 0031): a GTM container id, or `sandbox` (dataLayer only); unset: none. */
    TAG_MANAGER_ID: z
      .string()
      .trim()
      .regex(
        /^(sandbox|GTM-[A-Z0-9]{4,12})$/,
        "TAG_MANAGER_ID must be a Google Tag Manager id (GTM-XXXXXXX) or sandbox",
      )
      .optional()
      .or(z.literal("").transform(() => undefined)),
    SENTRY_DSN: z.string().default(""),
    SUPPORT_URL: z.string().default("mailto:support@portail.example"),
    /** Crisp's website id: the support chat is Crisp (loaded with JS) when set, the sandbox chat otherwise. */
    CRISP_WEBSITE_ID: z
      .string()
      .regex(/^[0-9a-f-]{36}$/i, "CRISP_WEBSITE_ID must be a Crisp website id (a UUID)")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    FAQ_URL: z.string().default("https://aide.portail.example/faq"),
    LEGAL_URL: z.string().default("https://portail.example/mentions-legales"),
    PRIVACY_URL: z.string().default("https://portail.example/confidentialite"),
    LANDING_URL: z.string().default("https://portail.example"),
    MANAGER_URL: z.string().default("https://gestion.portail.example"),
    APP_STORE_URL: z.string().default("https://apps.apple.com/fr/app/portail-avantages/id0000000000"),
    PLAY_STORE_URL: z.string().default("https://play.google.com/store/apps/details?id=example.portail"),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    /**
     * GET /metrics for Prometheus answers this bearer token (decision 0064); unset or blank: no endpoint (404).
     * At least 32 characters of a bearer token's alphabet, e.g. `openssl rand -hex 32`.
     */
    METRICS_TOKEN: optionalString.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9._~+/=-]{32,}$/, "METRICS_TOKEN must be at least 32 characters of A-Z a-z 0-9 - . _ ~ + / =")
        .optional(),
    ),
    /** `off` lifts the request limits below (load measurements only); the per-account guess limits stay. */
    RATE_LIMITS: z.enum(["on", "off"]).default("on"),
    /** The window every request limit counts in. */
    RATE_LIMIT_WINDOW_SECONDS: positiveInt(300),
    /** Requests per address per window without a signed-in session. */
    RATE_LIMIT_ANONYMOUS: positiveInt(3000),
    /** Requests per signed-in session per window (whatever the address: an office shares one). */
    RATE_LIMIT_SESSION: positiveInt(3000),
    /** Posts of the sign-in flows (password, its code, lost and reset password, activation…) per address per window. */
    RATE_LIMIT_SENSITIVE: positiveInt(200),
    /** Sensitive posts of a signed-in session (reveal, PIN, profile, security…) per window. */
    RATE_LIMIT_SESSION_SENSITIVE: positiveInt(60),
    /** Wrong passwords per account (per e-mail typed) before its guesses wait. */
    GUESS_LIMIT_PASSWORD: positiveInt(5),
    /** Wrong one-time codes per account, across codes, before its codes wait. */
    GUESS_LIMIT_CODE: positiveInt(10),
    /** The first wait; doubled at each further wrong guess. */
    GUESS_DELAY_SECONDS: positiveInt(60),
    /** The longest wait. */
    GUESS_DELAY_MAX_SECONDS: positiveInt(900),
    /** Wrong guesses left alone this long are forgotten. */
    GUESS_FORGET_SECONDS: positiveInt(86400),
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(1),
    PUBLIC_URL: optionalUrl,
    /** Where the sandbox card issuer keeps its vault key (so demo PINs survive restarts). */
    SANDBOX_ISSUER_KEY_FILE: z.string().default("data/sandbox-issuer.key"),
    /** Seconds the sandbox card issuer takes to make a new physical card (the onboarding wait screen shows it). */
    SANDBOX_CARD_DELAY_SECONDS: z.coerce.number().min(0).max(60).default(3),
    /** Stripe Issuing as the card issuer when set (required in production mode). */
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_PUBLISHABLE_KEY: optionalString,
    /** Stripe's RSA public key (PEM) for encrypting new PINs, and its key id. */
    STRIPE_ISSUING_PIN_PUBLIC_KEY: optionalString,
    STRIPE_ISSUING_PIN_KEY_ID: optionalString,
    /**
     * The signing secret (whsec_…) of the Stripe webhook endpoint POST /webhooks/stripe (decision 0036); unset: the
     * route does not exist (404).
     */
    STRIPE_WEBHOOK_SECRET: optionalString,
    /** Another Stripe API address (a local stand-in in tests), e.g. http://127.0.0.1:12111. */
    STRIPE_API_HOST: optionalString,
    /**
     * How long one Stripe request may wait for its answer before it counts as "outcome unknown" (decision 0043).
     * With STRIPE_NETWORK_RETRIES, a Stripe that does not answer holds a request at most about
     * (retries + 1) × this + 1 s of back-off.
     */
    STRIPE_TIMEOUT_MS: positiveInt(4000),
    /** How many times the Stripe client sends a request again, with the same idempotency key, after no answer. */
    STRIPE_NETWORK_RETRIES: z.coerce.number().int().min(0).max(3).default(1),
    /** Where uploaded receipts are kept: a folder of the server (default) or an S3-compatible bucket. */
    FILE_STORAGE: z.enum(["filesystem", "s3"]).default("filesystem"),
    /** The folder of FILE_STORAGE=filesystem. */
    FILE_STORAGE_DIR: z.string().default("data/files"),
    /** FILE_STORAGE=s3: the endpoint of an S3-compatible service (unset: AWS S3 of S3_REGION). */
    S3_ENDPOINT: optionalUrl,
    S3_BUCKET: optionalString,
    S3_REGION: z.string().default("us-east-1"),
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    /**
     * Megabytes (10⁶ bytes) of receipts one person may hold outside sent requests and allowances: their drafts'
     * files (decision 0047). An upload beyond it is refused.
     */
    RECEIPT_QUOTA_MB: positiveInt(60),
    /** Receipts one person may upload per hour (a window from their first upload), refused beyond it. */
    RECEIPT_UPLOADS_PER_HOUR: positiveInt(30),
    /** Straight-line distance × this = the estimated road distance of the allowances (offline geodata). */
    GEODATA_ROAD_FACTOR: boundedNumber(1.3, 1, 3),
    /** An OSRM-compatible routing service for road distances (e.g. http://127.0.0.1:5000); unset: the estimate. */
    ROUTING_URL: optionalUrl,
    /** How long one route may take before the estimate is used instead. */
    ROUTING_TIMEOUT_MS: positiveInt(2000),
    /** The partners' gateway (integrations page): a link is asked at <url>/<partner>/link; unset: the sandbox partners. */
    PARTNER_LINKS_URL: optionalUrl,
    /** Bearer token sent to PARTNER_LINKS_URL. */
    PARTNER_LINKS_TOKEN: optionalString,
    /** How long a partner may take to answer its link. */
    PARTNER_LINKS_TIMEOUT_MS: positiveInt(5000),
    /** Web Push (decision 0063): the VAPID public key, base64url of a P-256 point (`npm run vapid-keys`); unset: no push in browsers. */
    VAPID_PUBLIC_KEY: optionalString,
    /** The VAPID private key, base64url of 32 bytes; set with VAPID_PUBLIC_KEY or not at all. */
    VAPID_PRIVATE_KEY: optionalString,
    /** Who the push services may contact about this sender: a mailto: or https: address (needed with the keys). */
    VAPID_SUBJECT: optionalString,
    /** The push services' host suffixes the server may post to, comma-separated; unset: the browsers' own. */
    PUSH_SERVICE_HOSTS: pushServiceHosts,
  })
  .superRefine((env, ctx) => {
    if (env.APP_MODE === "sandbox" && !isLoopback(env.HOST) && env.ALLOW_PUBLIC_SANDBOX !== "1") {
      ctx.addIssue({
        code: "custom",
        path: ["HOST"],
        message:
          `sandbox mode on ${env.HOST} would publish /dev/outbox (every code and link) and the demo accounts to the network: ` +
          "listen on a loopback address (127.0.0.1, ::1, localhost), set APP_MODE=production, or set ALLOW_PUBLIC_SANDBOX=1 to publish the sandbox on purpose",
      });
    }
    if (env.GUESS_DELAY_MAX_SECONDS < env.GUESS_DELAY_SECONDS) {
      ctx.addIssue({
        code: "custom",
        path: ["GUESS_DELAY_MAX_SECONDS"],
        message: "GUESS_DELAY_MAX_SECONDS must be at least GUESS_DELAY_SECONDS",
      });
    }
    if (env.FILE_STORAGE === "s3") {
      for (const key of ["S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const)
        if (!env[key]) ctx.addIssue({ code: "custom", path: [key], message: `FILE_STORAGE=s3 needs ${key}` });
    }
    for (const issue of vapidIssues(env)) ctx.addIssue({ code: "custom", ...issue });
    if (env.APP_MODE === "production") {
      if (!env.SESSION_SECRET || env.SESSION_SECRET.split(",")[0]!.length < 32) {
        ctx.addIssue({
          code: "custom",
          path: ["SESSION_SECRET"],
          message: "production mode needs SESSION_SECRET (at least 32 characters; comma-separated to rotate)",
        });
      }
      if (!env.SMTP_URL) {
        ctx.addIssue({ code: "custom", path: ["SMTP_URL"], message: "production mode needs SMTP_URL to send codes" });
      }
    }
  });

/**
 * What is wrong with the VAPID settings (decision 0063): both keys or neither; the public key a P-256 point
 * (65 bytes, base64url without padding), the private key 32 bytes and the public key's own; a mailto: or https:
 * subject with them.
 */
function vapidIssues(env: {
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT?: string;
}): { path: string[]; message: string }[] {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey, VAPID_SUBJECT: subject } = env;
  if (!publicKey && !privateKey)
    return subject
      ? [{ path: ["VAPID_SUBJECT"], message: "VAPID_SUBJECT needs VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY" }]
      : [];
  if (!publicKey || !privateKey) {
    const missing = publicKey ? "VAPID_PRIVATE_KEY" : "VAPID_PUBLIC_KEY";
    return [{ path: [missing], message: `${missing} must be set with the other VAPID key (npm run vapid-keys)` }];
  }
  const issues: { path: string[]; message: string }[] = [];
  const publicBytes = base64UrlBytes(publicKey);
  const privateBytes = base64UrlBytes(privateKey);
  if (publicBytes?.length !== 65 || publicBytes[0] !== 4)
    issues.push({ path: ["VAPID_PUBLIC_KEY"], message: "VAPID_PUBLIC_KEY must be base64url of a 65-byte P-256 point" });
  if (privateBytes?.length !== 32)
    issues.push({ path: ["VAPID_PRIVATE_KEY"], message: "VAPID_PRIVATE_KEY must be base64url of 32 bytes" });
  if (issues.length === 0 && !isKeyPair(publicBytes!, privateBytes!))
    issues.push({ path: ["VAPID_PUBLIC_KEY"], message: "VAPID_PUBLIC_KEY is not VAPID_PRIVATE_KEY's public key" });
  if (!subject || !/^(mailto:[^\s@]+@[^\s@]+|https:\/\/[^\s/]+\S*)$/.test(subject))
    issues.push({ path: ["VAPID_SUBJECT"], message: "VAPID_SUBJECT must be a mailto: or https: address" });
  return issues;
}

/** The bytes of unpadded base64url text, or null when the text is not that. */
function base64UrlBytes(text: string): Buffer | null {
  return /^[A-Za-z0-9_-]+$/.test(text) ? Buffer.from(text, "base64url") : null;
}

/** Whether the private key's public point is that public key. */
function isKeyPair(publicKey: Buffer, privateKey: Buffer): boolean {
  try {
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(privateKey);
    return ecdh.getPublicKey().equals(publicKey);
  } catch {
    return false;
  }
}

/** Addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(h);
}

export type Env = z.infer<typeof envSchema> & { sessionSecrets: string[]; sandbox: boolean };

export class ConfigError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  // Sandbox mode may run without a secret: a random one per process keeps cookies unforgeable.
  const sessionSecrets = env.SESSION_SECRET
    ? env.SESSION_SECRET.split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [crypto.randomUUID() + crypto.randomUUID()];
  return { ...env, sessionSecrets, sandbox: env.APP_MODE === "sandbox" };
}

let cached: Env | undefined;
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
