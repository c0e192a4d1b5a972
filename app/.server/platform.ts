import { getEnv, type Env } from "./env";
import { migrateToLatest, openDatabase, pingDatabase, withStartupLock, type DatabaseHandle, type DB } from "./db";
import { isDatabaseEmpty, registerDemoCards, registerDemoPayments, seedDemo } from "./db/seed";
import { initServerErrorReporting } from "./error-reporting";
import { createLogger, type Logger } from "./logger";
import { createAnalytics, type AnalyticsProvider } from "./providers/analytics";
import { createFileStorage, type FileStorage } from "./providers/file-storage";
import { createGeodata, type Geodata } from "./providers/geodata";
import { createCardIssuer, type CardIssuer } from "./providers/issuer";
import { isSandboxIssuer } from "./providers/issuer/sandbox";
import { createMessenger, OutboxMessenger, smsAvailable, type Messenger } from "./providers/messaging";
import { createPartnerLinks, type PartnerLinks } from "./providers/partner-links";
import { createSupportChat, type SupportChat } from "./providers/chat";
import { createPaymentProcessor, type PaymentProcessor } from "./providers/payments";
import { isSandboxProcessor } from "./providers/payments/sandbox";
import { createPushSender, type PushSender } from "./providers/push";
import { createReceiptReader, type ReceiptReader } from "./providers/receipt-reading";
import { setGuessLimits, type GuessLimits } from "./services/guess-limits";
import { relyingPartyOf, type RelyingParty } from "./webauthn";

/** Everything the services need from the outside world, built once per process. */
export interface Platform {
  env: Env;
  db: DB;
  database: DatabaseHandle;
  messenger: Messenger;
  /** A text message can be delivered (sandbox mode, or Brevo configured): only then do pages offer SMS (decision 0062). */
  smsAvailable: boolean;
  /** Pushes: the sandbox outbox in sandbox mode, the subscribed browsers with VAPID keys (decisions 0030, 0063). */
  push: PushSender;
  /** The browsers' push (decision 0063): the VAPID public key they subscribe with; null without VAPID keys. */
  webPush: { publicKey: string; allowedHosts: readonly string[] } | null;
  issuer: CardIssuer;
  payments: PaymentProcessor;
  /** Uploaded receipts (a folder or an S3-compatible bucket). */
  fileStorage: FileStorage;
  /** Reads receipts on this server (its worker starts on first use). */
  receiptReader: ReceiptReader;
  /** Where addresses are and how far home is from work (the allowances; its dataset loads on first use). */
  geodata: Geodata;
  /** The partner services' sign-in links (the integrations page). */
  partnerLinks: PartnerLinks;
  /** The support chat: a conversation in the database (sandbox) or Crisp, loaded by the browser. */
  supportChat: SupportChat;
  /** Product analytics when ANALYTICS_KEY is set (services/analytics.ts records only with consent). */
  analytics: AnalyticsProvider | null;
  /** The WebAuthn relying party of the passkeys (decision 0060): its id and origin come from PUBLIC_URL. */
  relyingParty: RelyingParty;
  logger: Logger;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export async function createPlatform(env: Env): Promise<Platform> {
  const logger = createLogger(env.LOG_LEVEL);
  // Sentry when SENTRY_DSN is set (not in development); entry.server.tsx's handleError reports to it.
  initServerErrorReporting(env);
  setGuessLimits(guessLimitsOf(env));
  const database = openDatabase(env.DATABASE_URL, {
    onConnectionLost: (err) => logger.warn("database connection lost", { err: err.message }),
  });
  await migrateToLatest(database.db);
  // After the database: the sandbox outbox and issuer keep their records there. Each throws a ConfigError in
  // production without its real provider (Brevo for SMS, decision 0062; Stripe).
  let messenger: Messenger | OutboxMessenger;
  let issuer: CardIssuer;
  let payments: PaymentProcessor;
  try {
    messenger = createMessenger(env, database.db, logger);
    issuer = createCardIssuer(env, database.db);
    payments = createPaymentProcessor(env, database.db);
  } catch (err) {
    await database.close();
    throw err;
  }
  // Machines that start together on one PostgreSQL database seed it once: the second waits, then finds it full.
  if (env.sandbox)
    await withStartupLock(database.db, async () => {
      if (!(await isDatabaseEmpty(database.db))) return;
      await seedDemo(database.db, messenger, { now: new Date(), baseUrl: publicUrl(env) });
      if (isSandboxIssuer(issuer)) await registerDemoCards(database.db, issuer);
      if (isSandboxProcessor(payments)) await registerDemoPayments(database.db, payments);
      logger.info("demo data created", { database: database.kind });
    });
  const fileStorage = createFileStorage(env);
  const receiptReader = createReceiptReader();
  const geodata = createGeodata(env, logger);
  const partnerLinks = createPartnerLinks(env, database.db, logger, publicUrl(env));
  const supportChat = createSupportChat(env, database.db);
  const analytics = createAnalytics(env, database.db);
  // Each process sends what waits in the outbox (decision 0042); the loop's timer never holds the process.
  if (messenger instanceof OutboxMessenger) messenger.start();
  return {
    env,
    db: database.db,
    database,
    messenger,
    smsAvailable: smsAvailable(env),
    push: createPushSender(env, database.db, logger),
    webPush: env.VAPID_PUBLIC_KEY ? { publicKey: env.VAPID_PUBLIC_KEY, allowedHosts: env.PUSH_SERVICE_HOSTS } : null,
    issuer,
    payments,
    fileStorage,
    receiptReader,
    geodata,
    partnerLinks,
    supportChat,
    analytics,
    relyingParty: relyingPartyOf(publicUrl(env)),
    logger,
    ping: () => pingDatabase(database.db),
    close: async () => {
      if (messenger instanceof OutboxMessenger) await messenger.stop();
      await receiptReader.close();
      await analytics?.close();
      await database.close();
    },
  };
}

/** The per-account guess limits the environment sets (decision 0014). */
export function guessLimitsOf(env: Env): GuessLimits {
  const shared = {
    delayMs: env.GUESS_DELAY_SECONDS * 1000,
    maxDelayMs: env.GUESS_DELAY_MAX_SECONDS * 1000,
    forgetAfterMs: env.GUESS_FORGET_SECONDS * 1000,
  };
  return {
    password: { freeFailures: env.GUESS_LIMIT_PASSWORD, ...shared },
    code: { freeFailures: env.GUESS_LIMIT_CODE, ...shared },
  };
}

export function publicUrl(env: Env): string {
  return env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
}

// One platform per process, kept on globalThis so that dev-server reloads reuse the connection.
const holder = globalThis as typeof globalThis & { __portalPlatform?: Promise<Platform> };

export function getPlatform(): Promise<Platform> {
  holder.__portalPlatform ??= createPlatform(getEnv()).catch((err: unknown) => {
    holder.__portalPlatform = undefined;
    throw err;
  });
  return holder.__portalPlatform;
}

/**
 * Tests only: the platform `getPlatform()` hands out from now on (a test database, sandbox providers),
 * so that a route module's loader or action can be called with a real `Request`. Never called by the app.
 */
export function installPlatform(platform: Platform): void {
  holder.__portalPlatform = Promise.resolve(platform);
}
