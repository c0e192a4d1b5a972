import type { DB } from "../../db";
import { ConfigError, type Env } from "../../env";
import { parseApiHost } from "../issuer/stripe";
import type { PaymentProcessor } from "./port";
import { SandboxPaymentProcessor } from "./sandbox";
import { StripePaymentProcessor } from "./stripe";

/**
 * Stripe (customers, SetupIntents, PaymentIntents) when STRIPE_SECRET_KEY is set; otherwise the offline
 * sandbox processor, which production mode refuses.
 */
export function createPaymentProcessor(env: Env, db: DB): PaymentProcessor {
  if (env.STRIPE_SECRET_KEY) {
    if (!env.STRIPE_PUBLISHABLE_KEY) {
      throw new ConfigError(
        "Invalid configuration:\n  STRIPE_PUBLISHABLE_KEY: needed with STRIPE_SECRET_KEY (Stripe Elements collect new cards in the browser)",
      );
    }
    return new StripePaymentProcessor({
      secretKey: env.STRIPE_SECRET_KEY,
      publishableKey: env.STRIPE_PUBLISHABLE_KEY,
      ...(env.STRIPE_API_HOST ? parseApiHost(env.STRIPE_API_HOST) : {}),
      timeoutMs: env.STRIPE_TIMEOUT_MS,
      maxNetworkRetries: env.STRIPE_NETWORK_RETRIES,
    });
  }
  if (!env.sandbox) {
    throw new ConfigError(
      "Invalid configuration:\n  STRIPE_SECRET_KEY: production mode needs a real payment processor (Stripe); the sandbox processor is for demos only",
    );
  }
  return new SandboxPaymentProcessor(db);
}

export type { PaymentProcessor } from "./port";
