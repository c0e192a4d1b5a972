import { CardElement, Elements, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe, StripeError } from "@stripe/stripe-js";
import { useState } from "react";
import { useNavigate } from "react-router";
import { useTranslation, type Translate } from "~/i18n";

/**
 * Why a card was not saved (spec 000 §8): `shared.reasons.{code}` when the catalogue has words for
 * Stripe's code, else Stripe's own message (in the page's language), else the generic one.
 */
export function cardSetupFailure(t: Translate, error: Pick<StripeError, "code" | "message"> | undefined): string {
  const key = error?.code ? `shared.reasons.${error.code}` : null;
  const reason = key ? t(key) : null;
  if (reason && reason !== key) return reason;
  return error?.message || t("cards.addCreditCard.failed");
}

function CardForm({ clientSecret, returnTo }: { clientSecret: string; returnTo: string }) {
  const { t } = useTranslation();
  const stripe = useStripe();
  const elements = useElements();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) return;
    setBusy(true);
    setError(null);
    const result = await stripe
      .confirmCardSetup(clientSecret, { payment_method: { card } })
      .catch(() => ({ error: undefined, setupIntent: undefined }));
    if (result.setupIntent && !result.error) {
      // The panel's loader reads the SetupIntent back from Stripe and closes with the outcome.
      await navigate(`${returnTo}?${new URLSearchParams({ setup_intent: result.setupIntent.id })}`, {
        preventScrollReset: true,
      });
      return;
    }
    setError(cardSetupFailure(t, result.error));
    setBusy(false);
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-busy={busy}>
      <div className="field">
        <label className="field__label" htmlFor="stripe-card">
          {t("cards.addCreditCard.cardLabel")}
        </label>
        <div id="stripe-card" className="stripe-card">
          <CardElement options={{ hidePostalCode: true }} onReady={() => setReady(true)} />
        </div>
        {error ? (
          <p className="field__error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <button type="submit" className="button" disabled={!ready || busy}>
        {t("cards.addCreditCard.submit")}
      </button>
    </form>
  );
}

/**
 * The card form in Stripe Elements (`CardElement`, `confirmCardSetup`), with @stripe/react-stripe-js:
 * imported by StripeCardSetup once the panel runs in the browser, together with Stripe.js, so that the
 * bindings travel only to the person about to type a card (decision 0074).
 */
export function StripeCardForm({
  stripe,
  clientSecret,
  returnTo,
}: {
  stripe: Stripe;
  clientSecret: string;
  returnTo: string;
}) {
  const { i18n } = useTranslation();
  return (
    <Elements stripe={stripe} options={{ locale: i18n.language as "fr" }}>
      <CardForm clientSecret={clientSecret} returnTo={returnTo} />
    </Elements>
  );
}
