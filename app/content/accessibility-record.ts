/**
 * The accessibility record (decision 0068): the hand review's verdict on each criterion with its evidence, and
 * what the legal statement says about the audit (date, auditor, sample, test environment, content outside the
 * obligation). It is the one source of both `docs/accessibility.md`'s RGAA table (written by
 * `npm run accessibility-record`, checked equal by tests/scripts/accessibility-record.test.ts) and the statement
 * page `/accessibilite` with the footer's conformity state, so neither can say something the review did not find.
 *
 * Server side only: the page and the footer read what they need through loaders, so the evidence never reaches a
 * browser bundle.
 */

/** C = conforms, NC = does not conform, NA = not applicable (RGAA 4.1's three verdicts). */
export type Verdict = "C" | "NC" | "NA";

/** A text the statement shows, in each language of the portal. */
export type Localized = { fr: string; en: string; nl: string };

type CriterionBase = {
  /** The criterion's number in its standard: "7.1" (RGAA 4.1) or "2.4.11" (WCAG 2.2). */
  id: string;
  standard: "RGAA 4.1" | "WCAG 2.2";
  /** The RGAA theme (for WCAG 2.2 criteria, the RGAA theme they belong with). */
  theme: string;
  /** The criterion's title in French, as the standard words it (shortened for the table). */
  title: string;
  /** What was checked, on which pages, and which test shows it. */
  evidence: string;
};

/** A criterion that does not conform says so to the public, in each language. */
export type Criterion =
  (CriterionBase & { verdict: "C" | "NA" }) | (CriterionBase & { verdict: "NC"; publicText: Localized });

export type SamplePage = { name: Localized; url: string; template: string };

export type AccessibilityRecord = {
  /** The day the review was finished (ISO date); the statement's « établie le ». */
  auditDate: string;
  auditor: Localized;
  /** The portal's pages the review covered, as an auditor chooses them: one per template, every wizard step. */
  sample: SamplePage[];
  technologies: string[];
  /** The browsers and assistive technologies the review used (the statement's « environnement de test »). */
  environment: Localized[];
  tools: Localized[];
  /** Content that cannot be made accessible without a disproportionate burden (none today). */
  derogations: Localized[];
  /** Content outside the obligation (third-party content the portal neither makes nor controls). */
  outOfScope: Localized[];
  criteria: Criterion[];
};

/**
 * The verdicts, in the standards' order. Evidence names the pages checked, how, and the test that keeps the
 * verdict true; the integrator re-checks the ones fixed by issue 34's other parts against their tests.
 */
const criteria: Criterion[] = [
  {
    id: "1.2",
    standard: "RGAA 4.1",
    theme: "Images",
    title: "Chaque image de décoration est-elle correctement ignorée par les technologies d’assistance ?",
    verdict: "C",
    evidence:
      'The only image is the logo mark, an inline SVG with `aria-hidden="true" focusable="false"` beside the product name in text (`Logo.tsx`); no `<img>` in `app/`; the masked card number\'s bullets are `aria-hidden` (`CardVisual.tsx`); axe `svg-img-alt`/`image-alt` 0 violations on every state.',
  },
  {
    id: "3.1",
    standard: "RGAA 4.1",
    theme: "Couleurs",
    title:
      "Dans chaque page web, l’information ne doit pas être donnée uniquement par la couleur. Cette règle est-elle respectée ?",
    verdict: "C",
    evidence:
      'Delivery "danger" states, errors and switches say it in words (inline errors start with "Erreur :", switches are `role="switch"` with `aria-checked` and a text label); axe on every state; reviewed by hand.',
  },
  {
    id: "6.1",
    standard: "RGAA 4.1",
    theme: "Liens",
    title: "Chaque lien est-il explicite ?",
    verdict: "C",
    evidence:
      'Links name their target ("Changer les moyens de paiement" with the merchant in the list item, "Aller à…", summary links repeat the error); axe `link-name` 0 violations; reviewed by hand.',
  },
  {
    id: "7.1",
    standard: "RGAA 4.1",
    theme: "Scripts",
    title: "Chaque script est-il, si nécessaire, compatible avec les technologies d’assistance ?",
    verdict: "NC",
    evidence:
      'Issue 34\'s review found: Escape in the refund and allowance wizard dialogs can leave the dialog drawn without its modal state (issue 34 finding 4). Before: Every enhancement has a native base working without JS (journeys run JS off); dialogs are `<dialog>` named by their heading, switches `role="switch"`, sliders a real `input type="range"` paired with a text field; axe `aria-*` rules 0 violations.',
    publicText: {
      fr: "Dans les assistants de remboursement et d’indemnité, la touche Échap peut laisser la fenêtre affichée sans son comportement modal.",
      en: "In the refund and allowance wizards, the Escape key can leave the dialog shown without its modal behaviour.",
      nl: "In de wizards voor terugbetaling en vergoeding kan de Escape-toets het venster zichtbaar laten zonder modaal gedrag.",
    },
  },
  {
    id: "7.3",
    standard: "RGAA 4.1",
    theme: "Scripts",
    title:
      "Chaque script est-il contrôlable par le clavier et par tout dispositif de pointage (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      'Every control is a native link, button or field; keyboard journeys (`tests/e2e/a11y-*.spec.ts`) drive the panels, menus and wizard with the keyboard; error summary links focus their field with JS (`components/forms/ErrorSummary.tsx`, finding 8; its `role="alert"` is on an inner element, not on the focused container named by `aria-labelledby`, as GOV.UK Frontend ≥ 4.4).',
  },
  {
    id: "7.4",
    standard: "RGAA 4.1",
    theme: "Scripts",
    title:
      "Pour chaque script qui initie un changement de contexte, l’utilisateur est-il averti ou en a-t-il le contrôle ?",
    verdict: "C",
    evidence:
      "The only change on input is the wizard's funder `<select>` (with JS it reloads the funder's licences in place, a GET form with a \"Afficher les cartes de ce financeur\" button without JS): the content updates, the context (page, focus) stays; every other change follows a button.",
  },
  {
    id: "7.5",
    standard: "RGAA 4.1",
    theme: "Scripts",
    title:
      "Dans chaque page web, les messages de statut sont-ils correctement restitués par les technologies d’assistance ?",
    verdict: "C",
    evidence:
      "Flash messages stay and can be closed (finding 2); messages are rendered inside the open dialog or in a live region outside the inert area (finding 3). Evidence: `a11y-panels.spec.ts` « finding 2: a flash message stays well beyond 5 s, and keyboard users can close it » (JS on and off) and « finding 3: the default switch's message is in the open panel and in the accessibility tree » (Chromium's accessibility tree through CDP, which leaves inert content out).",
  },
  {
    id: "8.9",
    standard: "RGAA 4.1",
    theme: "Éléments obligatoires",
    title:
      "Dans chaque page web, les balises ne doivent pas être utilisées uniquement à des fins de présentation. Cette règle est-elle respectée ?",
    verdict: "C",
    evidence:
      "Headings, lists, `dl`, `fieldset`/`legend` used for their meaning; layout in CSS; axe 0 violations; markup reviewed.",
  },
  {
    id: "9.3",
    standard: "RGAA 4.1",
    theme: "Structuration de l’information",
    title: "Dans chaque page web, chaque liste est-elle correctement structurée ?",
    verdict: "C",
    evidence:
      "Navigations, wallets, credit cards, transactions and error summaries are `ul`/`ol`/`dl` (32 lists in `app/`); axe `list`/`listitem` 0 violations.",
  },
  {
    id: "10.7",
    standard: "RGAA 4.1",
    theme: "Présentation de l’information",
    title: "Dans chaque page web, pour chaque élément recevant le focus, la prise de focus est-elle visible ?",
    verdict: "NC",
    evidence:
      "Issue 34's review found: The PIN frame takes focus with no visible focus indicator (issue 34 finding 8). Before: `:focus-visible` outline and ring (`app/styles/app.css`); focus no longer hidden under open menus at 320 px (finding 4) nor off-screen in the side navigation on short windows (finding 5); focus no longer falls to `<body>` or the `<h1>` (findings 6, 7). Evidence: `a11y-keyboard.spec.ts` « Tab never lands on something hidden or covered » at 320 px (each menu open) and at 1024 × 500 (focused element inside the viewport and `elementFromPoint` at the centre of each of its boxes is the element), « Escape closes each menu and gives focus back to its button »; `a11y-panels.spec.ts` findings 6 and 7.",
    publicText: {
      fr: "Le cadre du code PIN prend le focus sans indicateur visible.",
      en: "The PIN frame takes focus without a visible indicator.",
      nl: "Het pincodekader krijgt de focus zonder zichtbare aanwijzing.",
    },
  },
  {
    id: "10.11",
    standard: "RGAA 4.1",
    theme: "Présentation de l’information",
    title:
      "Pour chaque page web, les contenus peuvent-ils être présentés sans perte d’information ou de fonctionnalité et sans avoir recours soit à un défilement vertical pour une fenêtre ayant une hauteur de 256 px, soit à un défilement horizontal pour une fenêtre ayant une largeur de 320 px (hors cas particuliers) ?",
    verdict: "NC",
    evidence:
      "Issue 34's review found: /settings/notifications is 368 px wide at 320 px (issue 34 finding 7). Before: `expectNoHorizontalScroll` on the main pages; no word split at 320 px, the reveal frame and wallet strip fit (finding 11, CSS). Evidence: `a11y-keyboard.spec.ts` « no word is split in the middle on the signed-in pages, menus open » (`Range.getClientRects` per word), « the current wallet is on screen in the wallet strip », « the revealed card details fit their frame, also with larger text spacing ».",
    publicText: {
      fr: "La page des préférences de notification dépasse 320 px de large et fait défiler la page horizontalement.",
      en: "The notification preferences page is wider than 320 px and scrolls sideways.",
      nl: "De pagina met meldingsvoorkeuren is breder dan 320 px en scrolt horizontaal.",
    },
  },
  {
    id: "11.10",
    standard: "RGAA 4.1",
    theme: "Formulaires",
    title:
      "Dans chaque formulaire, le contrôle de saisie est-il utilisé de manière pertinente (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      'Fixed by this work (findings 8, 9, 10, 11-forms): required fields carry `aria-required` (radios `required`), through `TextField`/`SelectField`/`TextAreaField` `required`; forms of several fields say "Tous les champs sont obligatoires sauf mention contraire." and optional fields "(facultatif)"; each error is tied to its field or group (`aria-invalid`, `aria-describedby` hint then error, "Erreur :"), including the payment-method total (fieldset `switch-amounts`) and the block reason; formats stated in hints; the sign-in code\'s hint says until when it can be typed (finding 12). Tests: `tests/e2e/a11y-forms.spec.ts` (all 6 journeys, JS on and off; each failed before its fix).',
  },
  {
    id: "12.7",
    standard: "RGAA 4.1",
    theme: "Navigation",
    title:
      "Dans chaque page web, un lien d’évitement ou d’accès rapide à la zone de contenu principal est-il présent (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      '"Aller au contenu" first in every page (`routes/shell/layout.tsx`, `PublicShell.tsx`, `href="#main"`); axe `bypass`/`skip-link` 0 violations.',
  },
  {
    id: "12.8",
    standard: "RGAA 4.1",
    theme: "Navigation",
    title: "Dans chaque page web, l’ordre de tabulation est-il cohérent ?",
    verdict: "NC",
    evidence:
      "Issue 34's review found: « Voir plus » in the notifications panel moves focus to the panel's heading, 45 Tab presses away from the new items (issue 34 finding 2). Before: Focus goes to the new step's field or heading, a cancel returns to its opener, panels opened from \"Actions sur la carte\" return focus to its `summary`. Evidence: `a11y-panels.spec.ts` « finding 6: focus never falls to <body> between the reveal panel's steps », « cancelling a deletion in the overflow panel returns focus to its Supprimer link », « after asking for a reset link, focus is on the success message », « finding 7: a panel opened from « Actions sur la carte » gives focus back to the menu ».",
    publicText: {
      fr: "« Voir plus » dans le panneau des notifications place le focus loin des nouvelles notifications, sans annonce.",
      en: "« See more » in the notifications panel puts focus far from the new notifications, with no announcement.",
      nl: "« Meer tonen » in het meldingenpaneel zet de focus ver van de nieuwe meldingen, zonder melding.",
    },
  },
  {
    id: "13.1",
    standard: "RGAA 4.1",
    theme: "Consultation",
    title:
      "Pour chaque page web, l’utilisateur a-t-il le contrôle de chaque limite de temps modifiant le contenu (hors cas particuliers) ?",
    verdict: "NC",
    evidence:
      "Issue 34's review found: A receipt being read reloads the page every 2 s without JavaScript, the support chat every 15 s (issue 34 finding 1). Before: No timer moves the block confirmation on (finding 1); flash messages stay until closed or at least 20 s (finding 2). The pending sign-in's 15 minutes are said as an end time on the code page and in its message (`routes/auth/login-code.tsx`, `routes/+shared/auth.server.ts`, finding 12). Evidence for 1 and 2: `card-actions.spec.ts` (the block confirmation has no meta refresh and is still there after 3.5 s, with « Aller à mes cartes », JS on and off) and `a11y-panels.spec.ts` « finding 2 ». The spec's « after 2 seconds » and « 5 s auto-hide » (000 §4) give way to WCAG 2.2.1 here.",
    publicText: {
      fr: "Sans JavaScript, la page se recharge toutes les 2 secondes pendant la lecture d’un justificatif et toutes les 15 secondes dans la messagerie d’aide.",
      en: "Without JavaScript, the page reloads every 2 seconds while a receipt is read and every 15 seconds in the help chat.",
      nl: "Zonder JavaScript wordt de pagina elke 2 seconden herladen terwijl een bewijsstuk wordt gelezen, en elke 15 seconden in de hulpchat.",
    },
  },
];

export const accessibilityRecord: AccessibilityRecord = {
  auditDate: "2026-11-28",
  auditor: {
    fr: "l’équipe du portail (revue interne, issue 34)",
    en: "the portal’s team (internal review, issue 34)",
    nl: "het team van het portaal (interne controle, issue 34)",
  },
  sample: [
    page("Connexion", "Sign-in", "Aanmelden", "/login", "public form"),
    page("Code de connexion", "Sign-in code", "Aanmeldcode", "/login/code", "public form"),
    page("Mes cartes", "My cards", "Mijn kaarten", "/cards/:cardId", "signed-in page"),
    page("Panneaux de la carte", "Card panels", "Kaartpanelen", "/cards/:cardId/freeze", "side panel"),
    page("Afficher le code PIN", "Show the PIN", "Pincode tonen", "/cards/:cardId/reveal", "side panel with frame"),
    page(
      "Nouvelle carte (assistant)",
      "New card (wizard)",
      "Nieuwe kaart (wizard)",
      "/cards/:cardId/new-card",
      "wizard",
    ),
    page("Mes comptes", "My wallets", "Mijn tegoeden", "/wallets/:walletId", "signed-in page"),
    page("Opérations", "Transactions", "Transacties", "/transactions", "list"),
    page("Remboursements", "Refunds", "Terugbetalingen", "/plans/expense-requests", "list"),
    page(
      "Demande de remboursement (chaque étape)",
      "Refund request (every step)",
      "Terugbetalingsaanvraag (elke stap)",
      "/plans/expense-requests/:requestId",
      "wizard",
    ),
    page("Indemnités mobilité", "Mobility allowances", "Mobiliteitsvergoedingen", "/plans/allowances", "list"),
    page(
      "Indemnité kilométrique (chaque étape)",
      "Distance allowance (every step)",
      "Kilometervergoeding (elke stap)",
      "/plans/allowances/:requestId",
      "wizard",
    ),
    page(
      "Abonnement de transport (chaque étape)",
      "Transport pass (every step)",
      "Vervoersabonnement (elke stap)",
      "/plans/allowances/:requestId",
      "wizard",
    ),
    page(
      "Services et partenaires",
      "Services and partners",
      "Diensten en partners",
      "/plans/integrations",
      "signed-in page",
    ),
    page("Notifications", "Notifications", "Meldingen", "/notifications", "side panel"),
    page("Paramètres", "Settings", "Instellingen", "/settings/notifications", "settings page with table"),
    page("Aide (messagerie)", "Help (chat)", "Hulp (chat)", "/support", "side panel"),
    page("Donner mon avis", "Give feedback", "Feedback geven", "/feedback", "dialog"),
    page("Trouver un commerce", "Find a shop", "Een winkel vinden", "/store-locator", "signed-in page"),
    page("Cookies", "Cookies", "Cookies", "/cookies", "public page"),
    page("Version allégée", "Light version", "Lichte versie", "/cards?light=1", "light version"),
    page("Pages légales", "Legal pages", "Juridische pagina’s", "/terms", "public page"),
    page(
      "Déclaration d’accessibilité",
      "Accessibility statement",
      "Toegankelijkheidsverklaring",
      "/accessibilite",
      "public page",
    ),
    page("Page introuvable", "Page not found", "Pagina niet gevonden", "/nowhere-at-all", "error page"),
  ],
  technologies: ["HTML", "CSS", "JavaScript", "WAI-ARIA"],
  environment: [
    {
      fr: "Chromium 14x avec le clavier seul, JavaScript activé puis désactivé",
      en: "Chromium 14x with the keyboard only, JavaScript on then off",
      nl: "Chromium 14x met alleen het toetsenbord, JavaScript aan en daarna uit",
    },
    {
      fr: "Arbre d’accessibilité de Chromium (ce que lisent les lecteurs d’écran), lu par le protocole DevTools",
      en: "Chromium’s accessibility tree (what screen readers read), read through the DevTools protocol",
      nl: "De toegankelijkheidsboom van Chromium (wat schermlezers lezen), gelezen via het DevTools-protocol",
    },
    {
      fr: "Affichage à 320 px, zoom à 200 % et 400 %, espacement du texte WCAG, couleurs forcées, animations réduites",
      en: "Display at 320 px, 200 % and 400 % zoom, WCAG text spacing, forced colours, reduced motion",
      nl: "Weergave op 320 px, zoom van 200 % en 400 %, WCAG-tekstafstand, geforceerde kleuren, minder beweging",
    },
  ],
  tools: [
    {
      fr: "axe-core (sur chaque état de page)",
      en: "axe-core (on every page state)",
      nl: "axe-core (op elke paginatoestand)",
    },
    {
      fr: "Playwright (parcours au clavier et mesures)",
      en: "Playwright (keyboard journeys and measurements)",
      nl: "Playwright (toetsenbordroutes en metingen)",
    },
    { fr: "Lecture du code HTML et CSS", en: "Reading the HTML and CSS", nl: "Lezen van de HTML en CSS" },
  ],
  derogations: [],
  outOfScope: [
    {
      fr: "La messagerie d’assistance externe (Crisp), lorsqu’elle est activée : un service tiers ; la page Aide du portail reste disponible sans elle.",
      en: "The external support chat (Crisp), when it is turned on: a third-party service; the portal’s Help page stays available without it.",
      nl: "De externe supportchat (Crisp), wanneer die is ingeschakeld: een dienst van derden; de Hulp-pagina van het portaal blijft zonder die chat beschikbaar.",
    },
    {
      fr: "Les pages des partenaires ouvertes depuis la page Services et partenaires, et le formulaire de carte bancaire de notre prestataire de paiement : ils relèvent de ces tiers.",
      en: "The partners’ pages opened from the Services and partners page, and our payment provider’s card form: they belong to these third parties.",
      nl: "De pagina’s van partners die vanaf de pagina Diensten en partners worden geopend, en het kaartformulier van onze betaalprovider: die zijn van deze derden.",
    },
  ],
  criteria,
};

function page(fr: string, en: string, nl: string, url: string, template: string): SamplePage {
  return { name: { fr, en, nl }, url, template };
}

/** The statement's conformity state: « totalement » at 100 %, « partiellement » from 50 %, « non » below. */
export type ConformityLevel = "total" | "partial" | "none";

export type Conformity = {
  level: ConformityLevel;
  /** Conform criteria among the applicable ones, in per cent, rounded down to one decimal (never 100 too soon). */
  rate: number;
  conform: number;
  notConform: number;
  notApplicable: number;
  rgaaReviewed: number;
  wcag22Reviewed: number;
};

/** The counts and the state the statement and the footer say, computed from the verdicts (RGAA's own formula). */
export function conformityOf(record: AccessibilityRecord = accessibilityRecord): Conformity {
  const count = (verdict: Verdict) => record.criteria.filter((c) => c.verdict === verdict).length;
  const conform = count("C");
  const notConform = count("NC");
  const applicable = conform + notConform;
  const rate = applicable === 0 ? 0 : Math.floor((conform / applicable) * 1000) / 10;
  return {
    level: rate === 100 ? "total" : rate >= 50 ? "partial" : "none",
    rate,
    conform,
    notConform,
    notApplicable: count("NA"),
    rgaaReviewed: record.criteria.filter((c) => c.standard === "RGAA 4.1").length,
    wcag22Reviewed: record.criteria.filter((c) => c.standard === "WCAG 2.2").length,
  };
}
