import { startTestServer, stopTestServer, type TestServer } from "../support/test-server";
import { startStripeStandIn, type StandInAnswer, type StripeStandIn } from "../support/stripe-stand-in";

export const STANDIN_PUBLISHABLE_KEY = "pk_test_standin";

export interface StripePortal {
  server: TestServer;
  stripeApi: StripeStandIn;
  stop(): Promise<void>;
}

/**
 * A built portal of a journey file's own on `port`, configured with Stripe test keys and pointed at a new loopback
 * stand-in of Stripe's API that answers what `answer` says (tests/support/stripe-stand-in.ts). `settings` adds to
 * or overrides the portal's settings (timeouts, retries).
 */
export async function startStripePortal(
  name: string,
  port: number,
  answer: (method: string, path: string, form: Record<string, string>) => StandInAnswer,
  settings: Record<string, string> = {},
): Promise<StripePortal> {
  const stripeApi = await startStripeStandIn(answer);
  const server = await startTestServer(name, port, {
    PUBLIC_URL: `http://localhost:${port}`,
    LOG_LEVEL: "warn",
    RATE_LIMIT_SENSITIVE: "1000",
    STRIPE_SECRET_KEY: "sk_test_standin",
    STRIPE_PUBLISHABLE_KEY: STANDIN_PUBLISHABLE_KEY,
    STRIPE_API_HOST: `http://127.0.0.1:${stripeApi.port}`,
    ...settings,
  }).catch(async (error: unknown) => {
    await stripeApi.close();
    throw error;
  });
  return {
    server,
    stripeApi,
    stop: async () => {
      await stopTestServer(server);
      await stripeApi.close();
    },
  };
}
