import { expect, test } from "./fixtures";
import { resourceMissing, type StandInAnswer } from "../support/stripe-stand-in";
import { startStripePortal, type StripePortal } from "./stripe-portal";
import { MARIE, signIn } from "./helpers";

/**
 * The card issuer does not answer (issue 18 §5, decision 0043): a portal of this file's own, with Stripe Issuing as
 * its issuer — a loopback stand-in of Stripe's API that makes the card when asked but can send its answer too late —
 * and a short STRIPE_TIMEOUT_MS. The person gets the wizard's form again (HTTP 400, the form contract) with a French
 * message saying nothing was done; sending it again later gives exactly one card.
 */

const PORT = Number(process.env.E2E_PORT ?? 3100) + 7;
const BASE = `http://localhost:${PORT}`;

let cardsMade = 0;
function answer(method: string, path: string, form: Record<string, string>): StandInAnswer {
  if (method === "POST" && path === "/v1/issuing/cardholders")
    return { status: 200, body: { id: "ich_standin", object: "issuing.cardholder" } };
  if (method === "POST" && path === "/v1/issuing/cards") {
    cardsMade += 1;
    return { status: 200, body: { id: `ic_${cardsMade}`, object: "issuing.card", status: "active", type: form.type } };
  }
  const card = /^\/v1\/issuing\/cards\/(ic_\d+)$/.exec(path);
  if (method === "GET" && card)
    return {
      status: 200,
      body: {
        id: card[1],
        object: "issuing.card",
        last4: "7777",
        brand: "Visa",
        exp_month: 11,
        exp_year: 2030,
        status: "active",
        type: "virtual",
        shipping: null,
      },
    };
  return resourceMissing(method, path);
}

let portal: StripePortal | undefined;
const jsOff = () => test.info().project.use.javaScriptEnabled === false;

test.beforeAll(async () => {
  if (!jsOff()) return;
  test.setTimeout(90_000);
  portal = await startStripePortal("e2e-provider-timeouts", PORT, answer, {
    STRIPE_TIMEOUT_MS: "300",
    STRIPE_NETWORK_RETRIES: "1",
  });
});

test.afterAll(async () => {
  await portal?.stop();
});

test.use({ baseURL: BASE });

test.beforeEach(() => {
  test.skip(
    !jsOff(),
    "one portal of this file's own on one port, started for the js-off project: the form without JavaScript is the path every browser has, and the same action answers it with JavaScript",
  );
});

test("the issuer does not answer: « ne répond pas », a 400 form, no card; sent again later, exactly one card", async ({
  page,
}) => {
  await signIn(page, MARIE);
  await page.goto("/cards");
  const nav = page.getByRole("navigation", { name: "Navigation principale" });
  await expect(nav.getByRole("link", { name: /•••• 7777/ })).toHaveCount(0);
  await page.getByRole("link", { name: "Créer une carte" }).last().click();
  const panel = page.getByRole("dialog", { name: "Créer une carte" });
  await panel.getByRole("radio", { name: "Carte virtuelle" }).check();

  // The card is made at the issuer, but its answer comes after the portal has given up.
  portal!.stripeApi.delayAnswers(10_000, (method, path) => method === "POST" && path === "/v1/issuing/cards");
  const refused = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/new-card"));
  await panel.getByRole("button", { name: "Continuer" }).click();
  expect((await refused).status()).toBe(400);
  await expect(page.getByRole("alert").filter({ hasText: "ne répond pas" })).toHaveText(
    "Le service qui fabrique les cartes ne répond pas pour le moment. Rien n’a été fait : réessayez dans quelques minutes, une seule carte sera créée.",
  );
  expect(cardsMade).toBe(1);
  await expect(nav.getByRole("link", { name: /•••• 7777/ })).toHaveCount(0);

  // The issuer answers again: the same form sent again finds the card it made, and makes no other.
  portal!.stripeApi.delayAnswers(0);
  await panel.getByRole("radio", { name: "Carte virtuelle" }).check();
  await panel.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByText("Votre carte a été créée.")).toBeVisible();
  await expect(nav.getByRole("link", { name: /•••• 7777/ })).toHaveCount(1);
  expect(cardsMade).toBe(1);
  const sent = portal!.stripeApi.requests.filter((r) => r.method === "POST" && r.path === "/v1/issuing/cards");
  expect(new Set(sent.map((r) => r.headers["idempotency-key"])).size).toBe(1);
  expect(sent.at(-1)!.replayed).toBe(true);
});
