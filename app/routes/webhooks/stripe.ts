import type { Route } from "./+types/stripe";
import { getPlatform } from "~/.server/platform";
import { handleStripeEvent, verifyStripeEvent } from "~/.server/services/stripe-webhook";
import { errorPage } from "~/routes/+shared/error-page.server";

/**
 * Stripe Issuing's webhook (issue 17 §6, decision 0036): `POST /webhooks/stripe`, no session, JSON let through for
 * this path only by server/security.ts. The signature is checked on the raw body before anything reads it; an
 * unsigned, badly signed (a malformed `Stripe-Signature` included), stale or unreadable body is a 400, logged with its
 * reason only (never the body nor the signature); so is a signed authorisation or transaction event whose object is
 * malformed or out of range, and a signed refund larger than the capture is a 409 (issue 28 §3).
 * `issuing_authorization.request` is answered synchronously as Stripe documents it: 200, the `Stripe-Version` header,
 * `{"approved": true|false}`, and `Server-Timing: decision;dur=…` (milliseconds from the verified event to the
 * committed decision: what the latency budget of DESIGN.md §6 is about). Without STRIPE_WEBHOOK_SECRET the route does
 * not exist.
 */
export async function action({ request }: Route.ActionArgs) {
  const platform = await getPlatform();
  const secret = platform.env.STRIPE_WEBHOOK_SECRET;
  if (!secret) return notFound();
  const raw = Buffer.from(await request.arrayBuffer());
  const verified = verifyStripeEvent(raw, request.headers.get("Stripe-Signature"), secret);
  if (verified.kind === "refused") {
    platform.logger.warn("stripe webhook refused", { reason: verified.reason });
    return json({ error: verified.reason, message: REFUSED }, 400);
  }
  try {
    const started = performance.now();
    const answer = await handleStripeEvent(platform, verified.event);
    if (answer.kind === "refused") {
      // Signed, but not applicable: a 4xx, so that Stripe's dashboard shows the failed delivery (its retries are
      // refused alike). An over-refund is a conflict with what was captured (its alert is the service's error).
      const overRefund = answer.reason === "refund larger than the capture";
      platform.logger.warn("stripe webhook refused", {
        reason: answer.reason,
        event: verified.event.id,
        type: verified.event.type,
      });
      return json({ error: answer.reason, message: overRefund ? OVER_REFUND : UNREADABLE }, overRefund ? 409 : 400);
    }
    if (answer.kind === "decision") {
      // The decision's own latency (decision 0036): from the verified event to the committed decision, waits for
      // the database and the person's lock included, the HTTP queue before this handler excluded.
      const decision = `decision;dur=${(performance.now() - started).toFixed(2)}`;
      return json({ approved: answer.approved }, 200, {
        "Stripe-Version": answer.stripeVersion,
        "Server-Timing": decision,
      });
    }
    return json({ received: true }, 200);
  } catch (err) {
    // Not applied and forgotten: Stripe delivers it again (a request falls back to the endpoint's timeout setting).
    platform.logger.error("stripe webhook failed", { err, event: verified.event.id, type: verified.event.type });
    return json({ error: "not applied" }, 500);
  }
}

/** Read by whoever looks at the endpoint's deliveries in Stripe's dashboard; `error` is the reason's code. */
const REFUSED =
  "Requête refusée : la signature Stripe de ce message est absente, invalide, trop ancienne ou datée du futur, ou son contenu n'est pas un évènement.";

/** A signed event of a type the portal reads whose object is malformed or out of range. */
const UNREADABLE =
  "Requête refusée : cet évènement Stripe est signé, mais son objet est incomplet, mal formé ou hors des limites attendues.";

/** A signed merchant refund larger than what is left of the capture: nothing is credited. */
const OVER_REFUND =
  "Requête refusée : ce remboursement dépasse ce qui reste à rembourser du montant capturé ; rien n'a été crédité.";

/** Nothing to read here: a webhook is a post. */
export function loader() {
  return notFound();
}

function notFound() {
  return new Response(errorPage(404), { status: 404, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function json(body: unknown, status: number, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers },
  });
}
