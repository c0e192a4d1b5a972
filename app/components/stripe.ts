import type { Stripe, StripeElementLocale } from "@stripe/stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure";

const loaded = new Map<string, Promise<Stripe | null>>();

/**
 * Stripe.js for this publishable key, in the page's language, loaded from js.stripe.com on first use
 * only (the `pure` entry does not load it on import; the CSP allows it only when Stripe is configured).
 * A failed load is forgotten, so that the next panel tries again. This module and its loader are imported
 * by the Stripe panels' effects, in the browser only, so that no route's JavaScript carries them (decision 0074).
 */
export function stripeFor(publishableKey: string, locale: string): Promise<Stripe | null> {
  const key = `${publishableKey}:${locale}`;
  let stripe = loaded.get(key);
  if (!stripe) {
    stripe = loadStripe(publishableKey, { locale: locale as StripeElementLocale });
    stripe.catch(() => loaded.delete(key));
    loaded.set(key, stripe);
  }
  return stripe;
}
