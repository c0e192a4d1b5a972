import type { Route } from "./+types/processor-fields";
import { getPlatform } from "~/.server/platform";
import { isSandboxProcessor, type FieldName } from "~/.server/providers/payments/sandbox";

/**
 * The sandbox payment processor's own card fields, framed by the portal's "add a card" panel. They
 * stand for the processor's hosted fields: the form posts here, to the processor, never to a portal
 * route, and the portal only learns the card's brand, last four digits and expiry. No script; works
 * without JavaScript; framable only by this site; never cached.
 *
 * server/app.ts does not run helmet on /sandbox-processor/* (see the sandbox issuer's reveal document).
 */
const HEADERS: Record<string, string> = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "Content-Security-Policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'self'; base-uri 'none'",
  "X-Frame-Options": "SAMEORIGIN",
  // Not no-referrer: with it the form's POST would carry `Origin: null`, which the portal refuses (CSRF).
  "Referrer-Policy": "same-origin",
  "X-Content-Type-Options": "nosniff",
  "Cross-Origin-Resource-Policy": "same-origin",
  "X-Robots-Tag": "noindex",
};

const STYLE = `body{margin:0;padding:1rem;font:1rem/1.5 system-ui,sans-serif;color:#1b1b1f;background:#fff}
label{display:block;font-weight:600;margin-top:1rem}input{display:block;box-sizing:border-box;width:100%;max-width:22rem;font:inherit;padding:.6rem;border:2px solid #4a4a55;border-radius:6px;margin-top:.25rem}
input:focus{outline:3px solid #ffbf47;outline-offset:1px}.hint{color:#4a4a55;margin:.25rem 0 0;font-size:.95rem}.error{color:#b01e2e;font-weight:600;margin:.25rem 0 0}
[aria-invalid=true]{border-color:#b01e2e}.alert{border-left:6px solid #b01e2e;background:#fdecee;padding:.75rem 1rem;margin-bottom:1rem}
button,.button{display:inline-block;margin-top:1.25rem;font:inherit;font-weight:600;padding:.7rem 1.2rem;border:0;border-radius:6px;background:#1d3f8f;color:#fff;text-decoration:none;cursor:pointer}
button:focus,.button:focus{outline:3px solid #ffbf47;outline-offset:2px}`;

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
  return new Response(html, { status, headers: HEADERS });
}

const FIELDS: { name: FieldName; label: string; hint: string; autocomplete: string; inputmode: string }[] = [
  {
    name: "number",
    label: "Numéro de carte",
    hint: "16 chiffres, sans espaces ou avec.",
    autocomplete: "cc-number",
    inputmode: "numeric",
  },
  {
    name: "expiry",
    label: "Date d’expiration",
    hint: "MM/AA, par exemple 09/28.",
    autocomplete: "cc-exp",
    inputmode: "numeric",
  },
  {
    name: "cvc",
    label: "Cryptogramme (CVC)",
    hint: "3 chiffres au dos de la carte.",
    autocomplete: "cc-csc",
    inputmode: "numeric",
  },
];

function form(errors: Partial<Record<FieldName | "form", string>> = {}, status = 200): Response {
  const fields = FIELDS.map((f) => {
    const error = errors[f.name];
    const describedBy = [`${f.name}-hint`, error ? `${f.name}-error` : ""].filter(Boolean).join(" ");
    return (
      `<label for="${f.name}">${f.label}</label><p class="hint" id="${f.name}-hint">${f.hint}</p>` +
      (error ? `<p class="error" id="${f.name}-error">Erreur : ${escape(error)}</p>` : "") +
      `<input id="${f.name}" name="${f.name}" autocomplete="${f.autocomplete}" inputmode="${f.inputmode}" aria-describedby="${describedBy}"${error ? ' aria-invalid="true"' : ""}>`
    );
  }).join("");
  const alert = errors.form ? `<div class="alert" role="alert"><p>${escape(errors.form)}</p></div>` : "";
  // Card numbers are never echoed back: after a refusal every field is empty again.
  return page(
    errors.form || Object.keys(errors).length > 0 ? "Erreur : Carte bancaire" : "Carte bancaire",
    `${alert}<form method="post" novalidate>${fields}<button type="submit">Enregistrer la carte</button></form>`,
    status,
  );
}

const expired = () => page("Lien expiré", "<p>Ce formulaire a expiré. Fermez le panneau et recommencez.</p>", 410);

async function sandbox() {
  const { env, payments } = await getPlatform();
  return env.sandbox && isSandboxProcessor(payments) ? payments : null;
}

export async function loader({ params, request }: Route.LoaderArgs) {
  const processor = await sandbox();
  if (!processor) return new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });
  if (request.method === "HEAD") return new Response(null, { status: 200, headers: HEADERS });
  const key = params.key;
  if (!key || key.length > 100 || !(await processor.setupIsOpen(key))) return expired();
  return form();
}

export async function action({ params, request }: Route.ActionArgs) {
  const processor = await sandbox();
  if (!processor) return new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });
  const key = params.key;
  if (!key || key.length > 100) return expired();
  const body = await request.formData();
  const value = (name: string) => String(body.get(name) ?? "").slice(0, 40);
  const outcome = await processor.submitFields(key, {
    number: value("number"),
    expiry: value("expiry"),
    cvc: value("cvc"),
  });
  if (outcome.kind === "expired") return expired();
  if (outcome.kind === "refused") return form(outcome.errors, 400);
  return page(
    "Carte enregistrée",
    `<p role="status">Votre carte est enregistrée.</p><p><a class="button" href="${escape(outcome.returnUrl)}" target="_top">Continuer</a></p>`,
  );
}
