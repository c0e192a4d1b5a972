import type { DB } from "../../db";
import { ConfigError, type Env } from "../../env";
import type { CardIssuer } from "./port";
import { SandboxIssuer } from "./sandbox";
import { parseApiHost, StripeIssuer } from "./stripe";

/**
 * Stripe Issuing when STRIPE_SECRET_KEY is set; otherwise the offline sandbox issuer, which
 * production mode refuses (real cards need a real issuer).
 */
export function createCardIssuer(env: Env, db: DB): CardIssuer {
  if (env.STRIPE_SECRET_KEY) {
    if (!env.STRIPE_PUBLISHABLE_KEY) {
      throw new ConfigError(
        "Invalid configuration:\n  STRIPE_PUBLISHABLE_KEY: needed with STRIPE_SECRET_KEY (Issuing Elements show card details in the browser)",
      );
    }
    if (Boolean(env.STRIPE_ISSUING_PIN_PUBLIC_KEY) !== Boolean(env.STRIPE_ISSUING_PIN_KEY_ID)) {
      throw new ConfigError(
        "Invalid configuration:\n  STRIPE_ISSUING_PIN_PUBLIC_KEY, STRIPE_ISSUING_PIN_KEY_ID: set both (or neither: PIN changes are then unavailable)",
      );
    }
    return new StripeIssuer({
      secretKey: env.STRIPE_SECRET_KEY,
      publishableKey: env.STRIPE_PUBLISHABLE_KEY,
      // A PEM in one environment line usually has its line breaks written as \n.
      pinPublicKeyPem: env.STRIPE_ISSUING_PIN_PUBLIC_KEY?.replace(/\\n/g, "\n"),
      pinKeyId: env.STRIPE_ISSUING_PIN_KEY_ID,
      ...(env.STRIPE_API_HOST ? parseApiHost(env.STRIPE_API_HOST) : {}),
      timeoutMs: env.STRIPE_TIMEOUT_MS,
      maxNetworkRetries: env.STRIPE_NETWORK_RETRIES,
    });
  }
  if (!env.sandbox) {
    throw new ConfigError(
      "Invalid configuration:\n  STRIPE_SECRET_KEY: production mode needs a real card issuer (Stripe Issuing); the sandbox issuer is for demos only",
    );
  }
  return new SandboxIssuer(db, env.SANDBOX_ISSUER_KEY_FILE, {
    physicalCardDelayMs: env.SANDBOX_CARD_DELAY_SECONDS * 1000,
  });
}

export type { CardIssuer } from "./port";
