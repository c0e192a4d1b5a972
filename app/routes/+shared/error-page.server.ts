/**
 * The French page for requests refused before a route's page can render (wrong method, wrong body format,
 * a post from another site, too large, too many). One small self-contained document: it must work
 * when nothing else does, so it needs no script, style sheet or database.
 */
const PAGES: Record<number, { title: string; text: string }> = {
  400: {
    title: "Requête invalide",
    text: "Le formulaire envoyé est incomplet ou illisible. Revenez à la page précédente et envoyez-le de nouveau.",
  },
  403: { title: "Requête refusée", text: "Cette demande ne vient pas de ce site : elle a été refusée par sécurité." },
  // A resource route's missing file or event (a receipt since deleted): the words of the portal's own 404 page.
  404: { title: "Page introuvable", text: "La page que vous cherchez n’existe pas ou a été déplacée." },
  405: {
    title: "Action non prise en charge",
    text: "Cette adresse ne permet pas cette action. Utilisez les liens et les boutons du portail.",
  },
  411: { title: "Requête refusée", text: "La longueur de la demande doit être indiquée." },
  413: { title: "Requête trop volumineuse", text: "La demande dépasse la taille acceptée par le portail." },
  415: { title: "Format non pris en charge", text: "Le portail n’accepte que les formulaires de ses propres pages." },
  429: { title: "Trop de tentatives", text: "Par sécurité, patientez quelques minutes avant de réessayer." },
  500: {
    title: "Une erreur est survenue",
    text: "Le service a rencontré un problème. Réessayez dans quelques instants.",
  },
};

const escape = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

export function errorPageHtml(title: string, text: string): string {
  return (
    `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escape(title)} – Portail Avantages</title></head>` +
    `<body><main><h1>${escape(title)}</h1><p>${escape(text)}</p><p><a href="/">Revenir à l’accueil</a></p></main></body></html>`
  );
}

/** The page for this status (the 500 page for a status without its own words). */
export function errorPage(status: number, text?: string): string {
  const page = PAGES[status] ?? PAGES[500]!;
  return errorPageHtml(page.title, text ?? page.text);
}
