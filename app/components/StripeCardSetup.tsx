import type { Stripe } from "@stripe/stripe-js";
import { useEffect, useState } from "react";
import { useTranslation } from "~/i18n";
import { LightVersionNote } from "./LightVersion";
import type { StripeCardForm } from "./StripeCardForm";

type Loaded = { stripe: Stripe; Form: typeof StripeCardForm };

/**
 * Stripe Elements for a SetupIntent (Stripe as the processor, decision 0018): the card is typed in
 * Stripe's frame (`CardElement`) and confirmed with `confirmCardSetup`; then the panel's loader is asked
 * again with `?setup_intent=…`. Needs JavaScript by nature: the server HTML says so, and the form
 * replaces that text once Stripe.js runs. Stripe.js (through ./stripe.ts) and the Elements form
 * (./StripeCardForm.tsx, with @stripe/react-stripe-js) are both loaded by this effect, in the browser only
 * (decision 0074).
 */
export function StripeCardSetup({
  clientSecret,
  publishableKey,
  returnTo,
}: {
  clientSecret: string;
  publishableKey: string;
  returnTo: string;
}) {
  const { t, i18n } = useTranslation();
  const [loaded, setLoaded] = useState<Loaded | null | "unavailable">(null);

  useEffect(() => {
    let current = true;
    Promise.all([
      import("./stripe").then(({ stripeFor }) => stripeFor(publishableKey, i18n.language)),
      import("./StripeCardForm"),
    ]).then(
      ([stripe, { StripeCardForm: Form }]) => current && setLoaded(stripe ? { stripe, Form } : "unavailable"),
      () => current && setLoaded("unavailable"),
    );
    return () => {
      current = false;
    };
  }, [publishableKey, i18n.language]);

  if (loaded === "unavailable") return <p className="alert alert--error">{t("cards.addCreditCard.unavailable")}</p>;
  if (!loaded)
    return (
      <>
        <p className="hint">{t("cards.addCreditCard.needsJs")}</p>
        <LightVersionNote className="hint" />
      </>
    );
  return <loaded.Form stripe={loaded.stripe} clientSecret={clientSecret} returnTo={returnTo} />;
}
