import type { Page } from "@playwright/test";

/** What the portal asked of Stripe.js in the page, as the stand-in recorded it. */
export interface StripeJsRecord {
  /** Publishable keys `Stripe(…)` was called with, and the locale. */
  keys: { publishableKey: string; locale: string | null }[];
  nonces: { issuingCard: string; nonce: string }[];
  /** Elements mounted, in order, with the options they were created with. */
  mounted: { type: string; options: Record<string, unknown> }[];
  confirmCardSetup: { clientSecret: string; withCardElement: boolean }[];
}

export interface StripeJsBehaviour {
  /** `load`: js.stripe.com cannot be reached; `nonce`: createEphemeralKeyNonce answers an error; `mount`: mounting throws. */
  fail?: "load" | "nonce" | "mount";
  /** confirmCardSetup answers this error instead of a succeeded SetupIntent. */
  confirmError?: { type?: string; code?: string; message?: string };
}

/**
 * A stand-in for Stripe.js (js.stripe.com cannot be reached here), served through Playwright's request
 * routing: `window.Stripe(key)` gives an object with the parts the portal and @stripe/react-stripe-js
 * use. Elements are plain elements in the page (`[data-stripe-element=type]`) that say what they were
 * given; every call is recorded in `window.__stripeStandIn` (read it with `stripeJsRecord`).
 */
export async function serveStripeJsStandIn(page: Page, behaviour: StripeJsBehaviour = {}): Promise<void> {
  await page.route("https://js.stripe.com/**", async (route) => {
    if (behaviour.fail === "load") return route.abort("connectionrefused");
    return route.fulfill({ status: 200, contentType: "application/javascript", body: standInScript(behaviour) });
  });
}

export async function stripeJsRecord(page: Page): Promise<StripeJsRecord> {
  return page.evaluate(() => (window as unknown as { __stripeStandIn: StripeJsRecord }).__stripeStandIn);
}

function standInScript(behaviour: StripeJsBehaviour): string {
  return `(() => {
  const behaviour = ${JSON.stringify(behaviour)};
  const record = (window.__stripeStandIn = { keys: [], nonces: [], mounted: [], confirmCardSetup: [] });
  const copy = (value) => JSON.parse(JSON.stringify(value || {}));
  function makeElement(type, options) {
    const node = document.createElement("div");
    const listeners = {};
    const fire = (event, payload) => (listeners[event] || []).slice().forEach((handler) => handler(payload));
    const element = {
      __type: type,
      mount(target) {
        if (behaviour.fail === "mount") throw new Error("stand-in: mount refused");
        const parent = typeof target === "string" ? document.querySelector(target) : target;
        node.setAttribute("data-stripe-element", type);
        node.textContent = type + (options && options.issuingCard ? " " + options.issuingCard : "");
        parent.appendChild(node);
        record.mounted.push({ type, options: copy(options) });
        setTimeout(() => fire("ready", element), 0);
      },
      on(event, handler) { (listeners[event] = listeners[event] || []).push(handler); return element; },
      once(event, handler) { return element.on(event, handler); },
      off(event, handler) { listeners[event] = (listeners[event] || []).filter((h) => h !== handler); return element; },
      update() {},
      focus() {},
      blur() {},
      clear() {},
      unmount() { node.remove(); },
      destroy() { node.remove(); },
    };
    return element;
  }
  window.Stripe = function Stripe(publishableKey, options) {
    record.keys.push({ publishableKey, locale: (options && options.locale) || null });
    const created = [];
    const elements = {
      create(type, options) { const element = makeElement(type, options); created.push(element); return element; },
      getElement(kind) {
        const type = typeof kind === "string" ? kind : kind && kind.__elementType;
        return created.find((element) => element.__type === type) || null;
      },
      update() {},
      on() {},
      submit: async () => ({}),
    };
    return {
      elements: () => elements,
      createToken: async () => ({}),
      createPaymentMethod: async () => ({}),
      confirmCardPayment: async () => ({}),
      async createEphemeralKeyNonce({ issuingCard }) {
        if (behaviour.fail === "nonce") return { error: { type: "api_error", message: "stand-in: no nonce" } };
        const nonce = "ephkn_standin_" + (record.nonces.length + 1);
        record.nonces.push({ issuingCard, nonce });
        return { nonce };
      },
      async confirmCardSetup(clientSecret, data) {
        record.confirmCardSetup.push({ clientSecret, withCardElement: Boolean(data && data.payment_method && data.payment_method.card && data.payment_method.card.__type === "card") });
        if (behaviour.confirmError) return { error: behaviour.confirmError };
        return { setupIntent: { id: clientSecret.split("_secret_")[0], status: "succeeded" } };
      },
    };
  };
  window.Stripe.version = "endive";
})();`;
}
