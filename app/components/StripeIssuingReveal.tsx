import type { Stripe } from "@stripe/stripe-js";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/i18n";
import type { StripeIssuingElements } from "./StripeIssuingElements";

type Failure = "loadFailed" | "nonceFailed" | "keyFailed" | "mountFailed";
type Reveal = { stripe: Stripe; Shown: typeof StripeIssuingElements; nonce: string; ephemeralKeySecret: string };

class RevealStepError extends Error {
  constructor(readonly failure: Failure) {
    super(failure);
  }
}

/**
 * The ephemeral-key nonce flow of Stripe Issuing Elements (decision 0018): Stripe.js makes a nonce
 * for the card, the portal's server makes an ephemeral key for that nonce and the signed-in person's
 * card (`keyUrl`, which also spends the one-time grant), and the elements are mounted with both. The
 * number, expiry, CVC or PIN are drawn by Stripe in its own frames: they never reach the portal. Stripe.js
 * (through ./stripe.ts) and the elements' bindings (./StripeIssuingElements.tsx) are loaded here, in the
 * browser, once the reveal is granted (decision 0074); any of them failing to load is Stripe.js failing to load.
 */
async function openReveal(
  publishableKey: string,
  locale: string,
  issuingCard: string,
  keyUrl: string,
): Promise<Reveal> {
  const [stripe, shown] = await Promise.all([
    import("./stripe").then(({ stripeFor }) => stripeFor(publishableKey, locale)).catch(() => null),
    import("./StripeIssuingElements").catch(() => null),
  ]);
  if (!stripe || !shown) throw new RevealStepError("loadFailed");
  const made = await stripe.createEphemeralKeyNonce({ issuingCard }).catch(() => null);
  const nonce = made?.nonce;
  if (!nonce) throw new RevealStepError("nonceFailed");
  const response = await fetch(keyUrl, {
    method: "POST",
    credentials: "same-origin",
    headers: { Accept: "application/json" },
    body: new URLSearchParams({ nonce }),
  }).catch(() => null);
  const answer = response?.ok
    ? ((await response.json().catch(() => null)) as { ephemeralKeySecret?: unknown } | null)
    : null;
  if (typeof answer?.ephemeralKeySecret !== "string") throw new RevealStepError("keyFailed");
  return { stripe, Shown: shown.StripeIssuingElements, nonce, ephemeralKeySecret: answer.ephemeralKeySecret };
}

function Failed({ failure }: { failure: Failure }) {
  const { t } = useTranslation();
  return (
    <div className="alert alert--warning" role="alert">
      <p>{t(`cards.reveal.elements.${failure}`)}</p>
    </div>
  );
}

export function StripeIssuingReveal({
  publishableKey,
  issuingCard,
  kind,
  keyUrl,
}: {
  publishableKey: string;
  issuingCard: string;
  kind: "details" | "pin";
  keyUrl: string;
}) {
  const { t, i18n } = useTranslation();
  const [reveal, setReveal] = useState<Reveal | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  // One nonce and one key per grant, even when React runs the effect twice (StrictMode in development).
  const started = useRef<Promise<Reveal> | null>(null);

  useEffect(() => {
    started.current ??= openReveal(publishableKey, i18n.language, issuingCard, keyUrl);
    let current = true;
    started.current.then(
      (opened) => current && setReveal(opened),
      (error: unknown) => current && setFailure(error instanceof RevealStepError ? error.failure : "keyFailed"),
    );
    return () => {
      current = false;
    };
  }, [publishableKey, i18n.language, issuingCard, keyUrl]);

  if (failure) return <Failed failure={failure} />;
  if (!reveal) return <p className="hint">{t("cards.reveal.elements.loading")}</p>;
  const options = { issuingCard, nonce: reveal.nonce, ephemeralKeySecret: reveal.ephemeralKeySecret };
  return (
    <reveal.Shown stripe={reveal.stripe} options={options} kind={kind} mountFailed={<Failed failure="mountFailed" />} />
  );
}
