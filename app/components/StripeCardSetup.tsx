import { useEffect, useRef, useState } from "react";
import { useRouteLoaderData } from "react-router";
import { useTranslation } from "~/i18n";
import type { loader as rootLoader } from "~/root";

/** The parts of Stripe.js used here (loaded from js.stripe.com, allowed by the CSP only with Stripe). */
interface StripeJs {
  elements(options: { clientSecret: string; locale: string }): { create(kind: "payment"): { mount(el: HTMLElement): void; destroy(): void } };
  confirmSetup(options: { elements: unknown; confirmParams: { return_url: string } }): Promise<{ error?: { message?: string } }>;
}
declare global {
  interface Window {
    Stripe?: (key: string) => StripeJs;
  }
}

let stripeScript: Promise<void> | undefined;
function loadStripeJs(nonce: string | undefined): Promise<void> {
  stripeScript ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = "https://js.stripe.com/v3/";
    if (nonce) script.nonce = nonce;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error("Stripe.js could not load"));
    document.head.append(script);
  });
  return stripeScript;
}

/**
 * Stripe Elements for a SetupIntent (Stripe as the processor): the card is typed in Stripe's frames;
 * on success Stripe sends the browser to `returnUrl?setup_intent=…`. Needs JavaScript by nature: the
 * server HTML says so, and the form replaces that text once Stripe.js runs.
 */
export function StripeCardSetup({ clientSecret, publishableKey, returnUrl }: { clientSecret: string; publishableKey: string; returnUrl: string }) {
  const { t } = useTranslation();
  const nonce = useRouteLoaderData<typeof rootLoader>("root")?.nonce;
  const mountPoint = useRef<HTMLDivElement>(null);
  const stripe = useRef<{ js: StripeJs; elements: unknown } | null>(null);
  const [state, setState] = useState<"loading" | "ready" | "busy" | "unavailable">("loading");
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let element: { destroy(): void } | undefined;
    loadStripeJs(nonce)
      .then(() => {
        if (!window.Stripe || !mountPoint.current) throw new Error("Stripe.js missing");
        const js = window.Stripe(publishableKey);
        const elements = js.elements({ clientSecret, locale: "fr" });
        const payment = elements.create("payment");
        payment.mount(mountPoint.current);
        element = payment;
        stripe.current = { js, elements };
        setState("ready");
      })
      .catch(() => setState("unavailable"));
    return () => element?.destroy();
  }, [clientSecret, publishableKey, nonce]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!stripe.current) return;
    setState("busy");
    const result = await stripe.current.js.confirmSetup({ elements: stripe.current.elements, confirmParams: { return_url: returnUrl } });
    // Only reached when Stripe did not redirect: the error is Stripe's own message.
    setError(result.error?.message ?? t("cards.addCreditCard.failed"));
    setState("ready");
  };

  if (state === "unavailable") return <p className="alert alert--error">{t("cards.addCreditCard.unavailable")}</p>;
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      {state === "loading" ? <p className="hint">{t("cards.addCreditCard.needsJs")}</p> : null}
      <div ref={mountPoint} />
      {error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={state !== "ready"}>
        {t("cards.addCreditCard.submit")}
      </button>
    </form>
  );
}
