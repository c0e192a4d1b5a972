import type { Route } from "./+types/issuer-reveal";
import { getPlatform } from "~/.server/platform";
import { isSandboxIssuer } from "~/.server/providers/issuer/sandbox";

/**
 * The sandbox issuer's own reveal document, framed by the portal's reveal panel. It stands for the
 * issuer's secure elements: no script, single-use link, never cached, framable only by this site.
 *
 * server/app.ts does not run helmet on /sandbox-issuer/*: @react-router/express *appends* a response's
 * headers to those already set, so helmet's `frame-ancestors 'none'` policy would be sent as well and
 * the browser, enforcing both, would refuse to show this page in the portal's iframe.
 */
const REVEAL_HEADERS: Record<string, string> = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "Content-Security-Policy":
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'",
  "X-Frame-Options": "SAMEORIGIN",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "Cross-Origin-Resource-Policy": "same-origin",
  "X-Robots-Tag": "noindex",
};

const STYLE = `body{margin:0;padding:1rem;font:1.1rem/1.5 system-ui,sans-serif;color:#1b1b1f;background:#fff}
dl{margin:0;display:grid;gap:.75rem}dt{font-size:.95rem;color:#4a4a55}dd{margin:0;font-size:1.5rem;font-weight:700;letter-spacing:.06em;font-variant-numeric:tabular-nums;overflow-wrap:anywhere}`;

function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
  return new Response(html, { status, headers: REVEAL_HEADERS });
}

const groups = (pan: string) => pan.replace(/(\d{4})(?=\d)/g, "$1 ");

export async function loader({ params, request }: Route.LoaderArgs) {
  const { env, issuer } = await getPlatform();
  if (!env.sandbox || !isSandboxIssuer(issuer))
    return new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });
  // A HEAD (link checker, prefetch) must not spend the single use.
  if (request.method === "HEAD") return new Response(null, { status: 200, headers: REVEAL_HEADERS });
  const key = params.key;
  const secret = key && key.length <= 100 ? await issuer.consumeReveal(key) : null;
  if (!secret)
    return page("Lien expiré", "<p>Ce lien a déjà servi ou a expiré.</p><p>Fermez le panneau et recommencez.</p>", 410);
  if (secret.kind === "pin") {
    return page("Code PIN", `<dl><div><dt>Code PIN</dt><dd id="pin">${secret.pin}</dd></div></dl>`);
  }
  return page(
    "Informations de la carte",
    `<dl><div><dt>Numéro de carte</dt><dd id="card-number">${groups(secret.pan)}</dd></div>` +
      `<div><dt>Date d’expiration</dt><dd id="expiry">${secret.expiry}</dd></div>` +
      `<div><dt>Cryptogramme (CVC)</dt><dd id="cvc">${secret.cvc}</dd></div></dl>`,
  );
}
