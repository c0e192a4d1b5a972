import type { Route } from "./+types/partner-page";
import { getPlatform } from "~/.server/platform";
import { isSandboxPartnerLinks, redeemSandboxPartnerLink } from "~/.server/providers/partner-links/sandbox";
import type { PartnerId } from "~/domain/integrations";

/**
 * The sandbox partner's page (issue 16 item 2): what a partner service would show once its sign-in link
 * is followed, opened by the integrations page in a new tab. The link is single-use and short-lived: a
 * second visit, a late one or a made-up one answers 404. Only in sandbox mode with the sandbox partners;
 * no script, never cached. Its text is the partner's, not the portal's catalogue: a stand-in for a site
 * the portal does not own (as the sandbox processor's fields are).
 */
const HEADERS: Record<string, string> = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "Content-Security-Policy": "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "X-Robots-Tag": "noindex",
};

const NAMES: Record<PartnerId, string> = {
  "uggy-vouchers": "Uggy – bons d’achat",
  uggy: "Uggy",
  rosaly: "Rosaly",
  joko: "Joko",
  klaro: "Klaro",
  "decathlon-intranet": "Decathlon – intranet",
  "decathlon-myPeopleDoc": "Decathlon – MyPeopleDoc",
  "decathlon-winchapps": "Decathlon – Winchapps",
};

function page(title: string, body: string, status: number): Response {
  const html = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head><body><main>${body}</main></body></html>`;
  return new Response(html, { status, headers: HEADERS });
}

export async function loader({ params }: Route.LoaderArgs) {
  const { env, db, partnerLinks } = await getPlatform();
  const notFound = () =>
    page(
      "Lien invalide – Partenaire de démonstration",
      "<h1>Lien invalide</h1><p>Ce lien a expiré ou a déjà servi. Revenez au portail et ouvrez le service à nouveau.</p>",
      404,
    );
  if (!env.sandbox || !isSandboxPartnerLinks(partnerLinks)) return notFound();
  const redeemed = await redeemSandboxPartnerLink(db, params.token);
  if (redeemed.kind !== "valid") return notFound();
  const name = NAMES[redeemed.partner];
  return page(
    `${name} – Partenaire de démonstration`,
    `<h1>${name}</h1><p>Partenaire de démonstration : vous êtes connecté à ${name} depuis le portail.</p>` +
      "<p>Ce lien était à usage unique et valable deux minutes : recharger cette page ne fonctionne plus.</p>",
    200,
  );
}
