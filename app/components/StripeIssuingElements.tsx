import {
  Elements,
  IssuingCardCopyButtonElement,
  IssuingCardCvcDisplayElement,
  IssuingCardExpiryDisplayElement,
  IssuingCardNumberDisplayElement,
  IssuingCardPinDisplayElement,
} from "@stripe/react-stripe-js";
import type { Stripe } from "@stripe/stripe-js";
import { Component, type ReactNode } from "react";
import { useTranslation } from "~/i18n";

/** A mount that throws (Stripe.js refusing the options) says so in the panel instead of breaking the page. */
class MountBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/**
 * Stripe Issuing Elements drawing the card's number, expiry and CVC, or its PIN, in Stripe's own frames,
 * with @stripe/react-stripe-js: imported by StripeIssuingReveal with Stripe.js once the one-time code is
 * accepted, so that the bindings travel only to the person revealing a card (decision 0074).
 */
export function StripeIssuingElements({
  stripe,
  options,
  kind,
  mountFailed,
}: {
  stripe: Stripe;
  options: { issuingCard: string; nonce: string; ephemeralKeySecret: string };
  kind: "details" | "pin";
  mountFailed: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <MountBoundary fallback={mountFailed}>
      <Elements stripe={stripe}>
        {kind === "pin" ? (
          <dl className="reveal-elements">
            <dt>{t("cards.reveal.elements.pin")}</dt>
            <dd>
              <IssuingCardPinDisplayElement options={options} />
            </dd>
          </dl>
        ) : (
          <>
            <dl className="reveal-elements">
              <dt>{t("cards.reveal.elements.number")}</dt>
              <dd>
                <IssuingCardNumberDisplayElement options={options} />
              </dd>
              <dt>{t("cards.reveal.elements.expiry")}</dt>
              <dd>
                <IssuingCardExpiryDisplayElement options={options} />
              </dd>
              <dt>{t("cards.reveal.elements.cvc")}</dt>
              <dd>
                <IssuingCardCvcDisplayElement options={options} />
              </dd>
            </dl>
            <div className="reveal-elements__copy">
              <IssuingCardCopyButtonElement options={{ toCopy: "number" }} />
            </div>
          </>
        )}
      </Elements>
    </MountBoundary>
  );
}
