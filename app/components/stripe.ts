import type { Stripe, StripeElementLocale } from "@stripe/stripe-js";

const loaded = new Map<string, Promise<Stripe | null>>();

/**
 * Stripe.js for this publishable key, in the page's language, loaded from js.stripe.com on first use
 * only (the CSP allows it only when Stripe is configured). Its loader (`@stripe/stripe-js/pure`) is itself
 * imported here, on that first use, so that no route's JavaScript carries it (decision 0074). A failed
 * load is forgotten, so that the next panel tries again.
 */
export function stripeFor(publishableKey: string, locale: string): Promise<Stripe | null> {
  const key = `${publishableKey}:${locale}`;
  let stripe = loaded.get(key);
  if (!stripe) {
    stripe = import("@stripe/stripe-js/pure").then(({ loadStripe }) =>
      loadStripe(publishableKey, { locale: locale as StripeElementLocale }),
    );
    stripe.catch(() => loaded.delete(key));
    loaded.set(key, stripe);
  }
  return stripe;
}
