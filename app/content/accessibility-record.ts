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
    id: "1.1",
    standard: "RGAA 4.1",
    theme: "Images",
    title: "Chaque image porteuse d’information a-t-elle une alternative textuelle ?",
    verdict: "NA",
    evidence:
      'No image carries information: no `<img>`, `<canvas>`, `<video>` or `role="img"` in `app/`; the only graphics are inline SVG icons, every one `aria-hidden="true"` (the review counted 0 SVG not hidden on the 23 sample pages), each beside a text that says the same (the logo link is named « Portail Avantages » by `aria-label`). The card visual is HTML text, not an image.',
  },
  {
    id: "1.2",
    standard: "RGAA 4.1",
    theme: "Images",
    title: "Chaque image de décoration est-elle correctement ignorée par les technologies d’assistance ?",
    verdict: "C",
    evidence:
      'The only images are inline SVG icons and the logo mark, `aria-hidden="true" focusable="false"` (`Logo.tsx`); the masked card number\'s bullets are `aria-hidden` (`CardVisual.tsx`); the review found no SVG exposed on any sample page; axe `svg-img-alt`/`image-alt` 0 violations on every journey state.',
  },
  {
    id: "2.1",
    standard: "RGAA 4.1",
    theme: "Cadres",
    title: "Chaque cadre a-t-il un titre de cadre ?",
    verdict: "C",
    evidence:
      "Two frames in the portal: the card details / PIN frame (`routes/cards/reveal.tsx`, `title` = the panel's title) and the payment provider's card form (`routes/cards/overflow-new-card.tsx`, `title` « Formulaire sécurisé de carte bancaire »); axe `frame-title` 0 violations on their states (`passkeys-reveal.spec.ts`, `balance-and-priority.spec.ts`).",
  },
  {
    id: "2.2",
    standard: "RGAA 4.1",
    theme: "Cadres",
    title: "Pour chaque cadre ayant un titre de cadre, ce titre de cadre est-il pertinent ?",
    verdict: "C",
    evidence:
      "The reveal frame is titled by what it shows (« Code PIN », « Informations de la carte »: the panel's own title) and the card-form frame by its purpose (« Formulaire sécurisé de carte bancaire »); read in the markup and in the accessibility tree of the reveal panel.",
  },
  {
    id: "3.1",
    standard: "RGAA 4.1",
    theme: "Couleurs",
    title:
      "Dans chaque page web, l’information ne doit pas être donnée uniquement par la couleur. Cette règle est-elle respectée ?",
    verdict: "C",
    evidence:
      'Delivery and refusal states, errors and switches say it in words (inline errors start with « Erreur : », switches are `role="switch"` with `aria-checked` and a text label, declined payments say « Refusée »); re-checked with forced colours emulated (`forced-colors: active`) on the settings, card, refund-type and profile pages: checkboxes keep their box and tick, buttons their border, selected states their words and weight (also LAYOUT\'s `a11y-reflow.spec.ts` forced-colours journey).',
  },
  {
    id: "3.2",
    standard: "RGAA 4.1",
    theme: "Couleurs",
    title:
      "Dans chaque page web, le contraste entre la couleur du texte et la couleur de son arrière-plan est-il suffisamment élevé (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      "axe `color-contrast` (WCAG 1.4.3) on every page state of every journey, JS on and off, 0 violations, including the status banner and the error, success and info alerts; the palette (`app/styles/app.css` `:root`): ink #1b1b1f and muted #4a4a55 on white and on the canvas #f4f5f8, brand #1d3f8f buttons with white text.",
  },
  {
    id: "3.3",
    standard: "RGAA 4.1",
    theme: "Couleurs",
    title:
      "Dans chaque page web, les couleurs utilisées dans les composants d’interface ou les éléments graphiques porteurs d’informations sont-elles suffisamment contrastées (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      "Fields have a 2 px #4a4a55 border on white (8.9:1), refused ones #b01e2e (6.2:1); buttons are filled #1d3f8f; the focus indicator is a 3 px #ffbf47 outline with a 5 px #1b1b1f ring around it (`:focus-visible`), so one of the pair reaches 3:1 on any background; switches' track and thumb measured in forced colours and normal mode (`a11y-reflow.spec.ts`). The light #c9ccd6 `--line` only draws panel and list separators, which identify no component.",
  },
  {
    id: "4.1",
    standard: "RGAA 4.1",
    theme: "Multimédia",
    title:
      "Chaque média temporel pré-enregistré a-t-il, si nécessaire, une transcription textuelle ou une audiodescription (hors cas particuliers) ?",
    verdict: "NA",
    evidence: "No audio or video anywhere in the portal (no `<audio>`, `<video>` or embedded player in `app/`).",
  },
  {
    id: "5.4",
    standard: "RGAA 4.1",
    theme: "Tableaux",
    title:
      "Pour chaque tableau de données ayant un titre, le titre est-il correctement associé au tableau de données ?",
    verdict: "C",
    evidence:
      "The portal's only data table, the notification preferences (`/settings/notifications`), has a `<caption>` « Notifications par type, par e-mail et par notification push » (visually hidden, read first by screen readers); found by the review on every sample page (1 table in all).",
  },
  {
    id: "5.6",
    standard: "RGAA 4.1",
    theme: "Tableaux",
    title:
      "Pour chaque tableau de données, chaque en-tête de colonnes et chaque en-tête de lignes sont-ils correctement déclarés ?",
    verdict: "C",
    evidence:
      '`/settings/notifications`: the channels are `<th scope="col">`, each notification type a `<th scope="row">` (review: `col,col,col,row,row,row,row`); under 576 px the table stacks and each checkbox keeps its label naming type and channel.',
  },
  {
    id: "5.7",
    standard: "RGAA 4.1",
    theme: "Tableaux",
    title:
      "Pour chaque tableau de données, la technique appropriée permettant d’associer chaque cellule avec ses en-têtes est-elle utilisée (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      "Simple table with one header row and one header column: `scope` on every `th` is the technique RGAA 5.7.4 expects; each checkbox is also wrapped in a `<label>` naming its type and channel, so the association holds when the table is read as a form.",
  },
  {
    id: "6.1",
    standard: "RGAA 4.1",
    theme: "Liens",
    title: "Chaque lien est-il explicite (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      "Links name their target alone or with their list item / heading (« Changer les moyens de paiement » with the merchant, « Vérifier maintenant », summary links repeat the error, « Fermer : Demander un remboursement »); links opening a new tab say so in their name (`NewTabLink.tsx`, the partners' buttons); axe `link-name` 0 violations; read on every sample page.",
  },
  {
    id: "6.2",
    standard: "RGAA 4.1",
    theme: "Liens",
    title: "Dans chaque page web, chaque lien a-t-il un intitulé ?",
    verdict: "C",
    evidence:
      "The review counted 0 link without a name on the 23 sample pages (text, or `aria-label` for the logo); axe `link-name` on every journey state.",
  },
  {
    id: "7.1",
    standard: "RGAA 4.1",
    theme: "Scripts",
    title: "Chaque script est-il, si nécessaire, compatible avec les technologies d’assistance ?",
    verdict: "C",
    evidence:
      'Every enhancement has a native base working without JS (journeys run JS off); dialogs are `<dialog>` named by their heading, switches `role="switch"`, sliders a real range paired with a text field. Issue 34 finding 4 (Escape leaving the wizard `<dialog>` drawn without its modal state) fixed in `Panel.tsx`: `a11y-dialogs.spec.ts` (Escape after a full page load, after typing, twice, at every point of every dialog: modal kept or closed cleanly, page behind inert, focus back to the opener, JS on and off). The refund wizard read through the accessibility tree at each step: `a11y-review.spec.ts` « a screen-reader pass of the refund wizard ».',
  },
  {
    id: "7.3",
    standard: "RGAA 4.1",
    theme: "Scripts",
    title:
      "Chaque script est-il contrôlable par le clavier et par tout dispositif de pointage (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      "Every control is a native link, button or field; the wallets' drag-and-drop has « Monter » / « Descendre » buttons (`SortableWallets.tsx`); every step of the four wizards walked with Tab and Shift+Tab, every control reached (`a11y-review.spec.ts`, JS on and off); menus and panels driven by the keyboard in `a11y-keyboard.spec.ts` and `a11y-panels.spec.ts`.",
  },
  {
    id: "7.4",
    standard: "RGAA 4.1",
    theme: "Scripts",
    title:
      "Pour chaque script qui initie un changement de contexte, l’utilisateur est-il averti ou en a-t-il le contrôle ?",
    verdict: "C",
    evidence:
      "The only change on input is the allowance wizard's funder `<select>` (with JS it reloads the funder's data in place; without JS a « Choisir » button): the content updates, page and focus stay. Every other change follows a button or link; partner pages open in a new tab only from a button that says so.",
  },
  {
    id: "7.5",
    standard: "RGAA 4.1",
    theme: "Scripts",
    title:
      "Dans chaque page web, les messages de statut sont-ils correctement restitués par les technologies d’assistance ?",
    verdict: "C",
    evidence:
      'Flash messages stay and are in the open dialog or a live region outside the inert area (`a11y-panels.spec.ts` findings 2 and 3, accessibility tree); a receipt being read, the chat and an upload\'s progress are announced by `role="status"`/`role="log"` regions without moving focus, the upload in steps, not every percent (`a11y-waiting.spec.ts`); « Voir plus » announces how many notifications came (`a11y-notifications.spec.ts`).',
  },
  {
    id: "8.1",
    standard: "RGAA 4.1",
    theme: "Éléments obligatoires",
    title: "Chaque page web est-elle définie par un type de document ?",
    verdict: "C",
    evidence:
      "`<!DOCTYPE html>` from `root.tsx` on every document, error pages included; the review read `document.doctype` = html on all 23 sample pages (404 included).",
  },
  {
    id: "8.3",
    standard: "RGAA 4.1",
    theme: "Éléments obligatoires",
    title: "Dans chaque page web, la langue par défaut est-elle présente ?",
    verdict: "C",
    evidence:
      "`<html lang>` set from the request's language (`root.tsx`, fr/en/nl); present on the 23 sample pages and on the error pages; axe `html-has-lang`/`html-lang-valid` on every state.",
  },
  {
    id: "8.4",
    standard: "RGAA 4.1",
    theme: "Éléments obligatoires",
    title: "Pour chaque page web ayant une langue par défaut, le code de langue est-il pertinent ?",
    verdict: "C",
    evidence:
      "The `lang` is the catalogue the page is written in (fr by default, en or nl when chosen): the same value selects the texts (`app/i18n`), so it cannot differ from the page's language.",
  },
  {
    id: "8.5",
    standard: "RGAA 4.1",
    theme: "Éléments obligatoires",
    title: "Chaque page web a-t-elle un titre de page ?",
    verdict: "C",
    evidence:
      "Every route sets its title through `DocumentTitle.tsx` (« page – Portail Avantages »); `page-titles.spec.ts` checks the public, legal and 404 titles; the review read a title on the 23 sample pages.",
  },
  {
    id: "8.6",
    standard: "RGAA 4.1",
    theme: "Éléments obligatoires",
    title: "Pour chaque page web ayant un titre de page, ce titre est-il pertinent ?",
    verdict: "C",
    evidence:
      "Titles name the page, its panel or wizard step, and start with « Erreur : » only while a refusal is shown. Issue 34 finding 5 (« Erreur : » kept after a later accepted submission) fixed once for every form in `app/components/forms/useForm.ts`: `a11y-notifications.spec.ts` (support and feedback: refused then accepted → title without « Erreur : », JS on and off).",
  },
  {
    id: "8.7",
    standard: "RGAA 4.1",
    theme: "Éléments obligatoires",
    title:
      "Dans chaque page web, chaque changement de langue est-il indiqué dans le code source (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      "Pages are written in one language each; the one passage in another language, the Défenseur des droits' French postal address on the English and Dutch statement, carries `lang=\"fr\"` (`routes/legal/accessibility.tsx`, checked in `a11y-review.spec.ts`). Proper names (products, partners) are the RGAA's particular case.",
  },
  {
    id: "8.9",
    standard: "RGAA 4.1",
    theme: "Éléments obligatoires",
    title:
      "Dans chaque page web, les balises ne doivent pas être utilisées uniquement à des fins de présentation. Cette règle est-elle respectée ?",
    verdict: "C",
    evidence:
      "Headings, lists, `dl`, `fieldset`/`legend`, `table` used for their meaning; layout in CSS (grid/flex); no layout table; axe 0 violations; markup of the sample read.",
  },
  {
    id: "8.10",
    standard: "RGAA 4.1",
    theme: "Éléments obligatoires",
    title: "Dans chaque page web, les changements du sens de lecture sont-ils signalés ?",
    verdict: "NA",
    evidence:
      'The portal\'s languages (French, English, Dutch) are all left to right; `dir="ltr"` on `<html>`; no right-to-left text.',
  },
  {
    id: "9.1",
    standard: "RGAA 4.1",
    theme: "Structuration de l’information",
    title: "Dans chaque page web, l’information est-elle structurée par l’utilisation appropriée de titres ?",
    verdict: "C",
    evidence:
      "One `h1` per page (the review: exactly one on the 23 sample pages, the panels and dialogs included since issue 34's NOTIF part), sections `h2`, wizard steps `h3` « Étape N sur M : … » under the panel's `h2`; the side navigation's group headings (`h2`) come before the `h1` in the header, a coherent hierarchy; axe `heading-order`, `page-has-heading-one`.",
  },
  {
    id: "9.2",
    standard: "RGAA 4.1",
    theme: "Structuration de l’information",
    title: "Dans chaque page web, la structure du document est-elle cohérente (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      'Every page: `header`, `nav` « Navigation principale », one `main id="main"`, `footer` with `nav` « Informations légales »; the store locator\'s form and results in `main`; the review listed the landmarks on each sample page; axe `landmark-*`, `region` rules 0 violations.',
  },
  {
    id: "9.3",
    standard: "RGAA 4.1",
    theme: "Structuration de l’information",
    title: "Dans chaque page web, chaque liste est-elle correctement structurée ?",
    verdict: "C",
    evidence:
      "Navigations, wallets, credit cards, transactions, notifications, error summaries and the statement's lists are `ul`/`ol`/`dl`; axe `list`/`listitem`/`definition-list` 0 violations.",
  },
  {
    id: "10.1",
    standard: "RGAA 4.1",
    theme: "Présentation de l’information",
    title:
      "Dans le site web, des feuilles de styles sont-elles utilisées pour contrôler la présentation de l’information ?",
    verdict: "C",
    evidence:
      "All presentation in `app/styles/*.css`; no `style` attribute in the components (0 `style={{` in `app/`) and no presentational attribute; no `<font>`, `<center>`, `align`, spacer images.",
  },
  {
    id: "10.3",
    standard: "RGAA 4.1",
    theme: "Présentation de l’information",
    title:
      "Dans chaque page web, l’information reste-t-elle compréhensible lorsque les feuilles de styles sont désactivées ?",
    verdict: "C",
    evidence:
      "The markup's order is the order drawn: in every wizard step, each control's box is below the previous one or on its line further right (`a11y-review.spec.ts`, every step of the four wizards, JS on and off); no CSS reordering (`order`, absolute placement of content) in the sample.",
  },
  {
    id: "10.4",
    standard: "RGAA 4.1",
    theme: "Présentation de l’information",
    title:
      "Dans chaque page web, le texte reste-t-il lisible lorsque la taille des caractères est augmentée jusqu’à 200 %, au moins (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      "Sizes in `rem`; at 640 × 400 CSS px (1280 px at 200 %) the review measured no sideways scroll (`scrollWidth` = 640) on the 23 sample pages; 400 % zoom (320 CSS px) in `a11y-reflow.spec.ts`.",
  },
  {
    id: "10.6",
    standard: "RGAA 4.1",
    theme: "Présentation de l’information",
    title:
      "Dans chaque page web, chaque lien dont la nature n’est pas évidente est-il visible par rapport au texte environnant ?",
    verdict: "C",
    evidence:
      "Links in text are underlined (`app/styles/app.css` `a`), thicker on hover; action links are styled as buttons or `link-action` with an underline.",
  },
  {
    id: "10.7",
    standard: "RGAA 4.1",
    theme: "Présentation de l’information",
    title: "Dans chaque page web, pour chaque élément recevant le focus, la prise de focus est-elle visible ?",
    verdict: "C",
    evidence:
      "`:focus-visible` outline and ring (`app/styles/app.css`); the review tabbed through the card page at 1280 px (60 stops, each with a 3 px outline) and, with forced colours, through the settings, card, refund and profile pages (the outline stays, 3 px, in the system colour). Issue 34 finding 8 (the PIN frame without indicator) fixed with a `:focus-within` ring on its container: `a11y-dialogs.spec.ts` « 10.7 » (ring measured); forced colours: `a11y-reflow.spec.ts`; menus and short windows: `a11y-keyboard.spec.ts`.",
  },
  {
    id: "10.8",
    standard: "RGAA 4.1",
    theme: "Présentation de l’information",
    title:
      "Pour chaque page web, les contenus cachés ont-ils vocation à être ignorés par les technologies d’assistance ?",
    verdict: "C",
    evidence:
      "Hidden content is either for screen readers only (`.visually-hidden` texts: new tab, the table's caption, the channel of each checkbox) or hidden from all (`hidden`, closed `details`, `aria-hidden` icons); the page behind an open dialog is `inert` (`a11y-dialogs.spec.ts`); axe `aria-hidden-focus` 0 violations.",
  },
  {
    id: "10.9",
    standard: "RGAA 4.1",
    theme: "Présentation de l’information",
    title:
      "Dans chaque page web, l’information ne doit pas être donnée uniquement par la forme, taille ou position. Cette règle est-elle respectée ?",
    verdict: "C",
    evidence:
      "The current step, page and tab are said in words (« Étape 2 sur 4 », `aria-current`), the selected wallet and card by their name, a card's state in text; nothing refers to « à droite » or « le bouton rond ».",
  },
  {
    id: "10.11",
    standard: "RGAA 4.1",
    theme: "Présentation de l’information",
    title:
      "Pour chaque page web, les contenus peuvent-ils être présentés sans perte d’information ou de fonctionnalité et sans avoir recours soit à un défilement vertical pour une fenêtre ayant une hauteur de 256 px, soit à un défilement horizontal pour une fenêtre ayant une largeur de 320 px (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      "The review measured no sideways scroll of the document at 320 × 256 on the 23 sample pages; every page state the journeys reach is checked at 320 × 640 by `expectReflow` (Contract T, decision 0069). Issue 34 finding 7 (`/settings/notifications` 368 px wide: the visually hidden names escaping `.table-scroll`) fixed by LAYOUT: `a11y-reflow.spec.ts` « 10.11 » (JS on and off) and « at 400 % zoom », passing on 2026-11-28 17:01 UTC (main at b165a33).",
  },
  {
    id: "10.12",
    standard: "RGAA 4.1",
    theme: "Présentation de l’information",
    title:
      "Dans chaque page web, les propriétés d’espacement du texte peuvent-elles être redéfinies par l’utilisateur sans perte de contenu ou de fonctionnalité (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      "WCAG 1.4.12 spacing (line 1.5, paragraphs 2 em, letters 0.12 em, words 0.16 em) applied at 320 px on every page state the journeys reach: no sideways scroll, no text clipped (`expectReflow`). Issue 34 finding 9 (wizard header: « Fermer » cut) fixed in the wizard panel header: `a11y-dialogs.spec.ts` « 10.12 »; the second-factor choices that overflowed with that spacing (found by the checks) fixed: `a11y-reflow.spec.ts` « 10.12 », both passing on 2026-11-28 17:01 UTC.",
  },
  {
    id: "10.13",
    standard: "RGAA 4.1",
    theme: "Présentation de l’information",
    title:
      "Dans chaque page web, les contenus additionnels apparaissant à la prise de focus ou au survol d’un composant d’interface sont-ils contrôlables par l’utilisateur (hors cas particuliers) ?",
    verdict: "NA",
    evidence:
      "No content appears on hover or focus: no tooltip, no `title` attribute on the sample pages (the review found none), menus open on a click (`details`/`summary`) and close with Escape.",
  },
  {
    id: "10.14",
    standard: "RGAA 4.1",
    theme: "Présentation de l’information",
    title:
      "Dans chaque page web, les contenus additionnels apparaissant via les styles CSS uniquement peuvent-ils être rendus visibles au clavier et par tout dispositif de pointage ?",
    verdict: "C",
    evidence:
      "The only content shown by CSS alone is the skip link « Aller au contenu », visible when it takes focus (first Tab on every page; `a11y-keyboard.spec.ts`).",
  },
  {
    id: "11.1",
    standard: "RGAA 4.1",
    theme: "Formulaires",
    title: "Chaque champ de formulaire a-t-il une étiquette ?",
    verdict: "C",
    evidence:
      "Every field comes from `components/forms` (`Field`, `DateField`, `Radios`, `Checkbox`…) with a `<label for>`; the review found 0 visible field without a label on the 23 sample pages and every wizard step; the refund wizard read in the accessibility tree: every textbox, radio, combobox and button named (`a11y-review.spec.ts`); axe `label` 0 violations.",
  },
  {
    id: "11.2",
    standard: "RGAA 4.1",
    theme: "Formulaires",
    title: "Chaque étiquette associée à un champ de formulaire est-elle pertinente (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      "Labels say what to type (« Montant payé », « Date de l’achat », « Code à 6 chiffres ») with formats in hints; the notification checkboxes name type and channel; the visible label is the start of the accessible name (WCAG 2.5.3).",
  },
  {
    id: "11.5",
    standard: "RGAA 4.1",
    theme: "Formulaires",
    title: "Dans chaque formulaire, les champs de même nature sont-ils regroupés, si nécessaire ?",
    verdict: "C",
    evidence:
      "Radio groups, the addresses of the allowance wizard (home, work), the payment-method amounts and the cookie choices are `fieldset`s (`Radios`, `AddressFields`); read in the markup of the sample.",
  },
  {
    id: "11.6",
    standard: "RGAA 4.1",
    theme: "Formulaires",
    title: "Dans chaque formulaire, chaque regroupement de champs de même nature a-t-il une légende ?",
    verdict: "C",
    evidence:
      "Every `fieldset` has a `legend` (« Adresse de votre domicile », « Type de dépense », « Version légère »…); the review listed each field's legend; the Tab walks of `a11y-review.spec.ts` reach the groups by their legend's name.",
  },
  {
    id: "11.7",
    standard: "RGAA 4.1",
    theme: "Formulaires",
    title:
      "Dans chaque formulaire, chaque légende associée à un regroupement de champs de même nature est-elle pertinente ?",
    verdict: "C",
    evidence:
      "Legends say what the group is about and which answer is asked (« Adresse de votre lieu de travail », « Mesure d’audience et questionnaires »), read on the sample's forms.",
  },
  {
    id: "11.9",
    standard: "RGAA 4.1",
    theme: "Formulaires",
    title: "Dans chaque formulaire, l’intitulé de chaque bouton est-il pertinent (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      "Buttons say their action (« Envoyer le justificatif », « Valider le code »). Issue 34 finding 3 (20 « Supprimer » and « Marquer comme non lue » buttons not tied to their notification) fixed: each is named with its notification: `a11y-notifications.spec.ts` « 11.9 ».",
  },
  {
    id: "11.10",
    standard: "RGAA 4.1",
    theme: "Formulaires",
    title:
      "Dans chaque formulaire, le contrôle de saisie est-il utilisé de manière pertinente (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      "Required fields carry `aria-required` (radios `required`) and a refused field is `aria-invalid` with its « Erreur : » message in `aria-describedby` (`a11y-forms.spec.ts`; the refund wizard's refused details read in the accessibility tree: `a11y-review.spec.ts`). The refund wizard's details step, JavaScript off, receipt still being read: after « Continuer sans attendre » a refused submission (amount « douze ») used to answer the waiting page without the form or the errors; fixed in b6fe477 (the details step shows a refused form while the reading is pending). Re-checked on 2026-11-28 (main at b6fe477): the refusal shows « Il y a un problème », the amount kept with `aria-invalid`, no « Lecture de votre justificatif en cours… »; `a11y-waiting.spec.ts` « 11.10 after « Continuer sans attendre »… » passes with JavaScript on and off.",
  },
  {
    id: "11.11",
    standard: "RGAA 4.1",
    theme: "Formulaires",
    title:
      "Dans chaque formulaire, le contrôle de saisie est-il accompagné, si nécessaire, de suggestions facilitant la correction des erreurs de saisie ?",
    verdict: "C",
    evidence:
      "Each error says how to fix it (« Indiquez une date valide, par exemple 14/11/2026. », « Ce type de fichier n’est pas accepté : choisissez un PDF, un PNG ou un JPG. »), the summary links to the field; read on the refused states of the wizards (`a11y-review.spec.ts` « details refused », `a11y-forms.spec.ts`).",
  },
  {
    id: "11.12",
    standard: "RGAA 4.1",
    theme: "Formulaires",
    title:
      "Pour chaque formulaire qui modifie ou supprime des données, ou qui transmet des réponses à un test ou à un examen, ou dont la validation a des conséquences financières ou juridiques, les données saisies peuvent-elles être modifiées, mises à jour ou récupérées par l’utilisateur ?",
    verdict: "C",
    evidence:
      "Refund and allowance requests end on a summary with « Modifier » links to each step before sending (walked in `a11y-review.spec.ts`); deletions and card stops ask for confirmation and can be cancelled (`a11y-panels.spec.ts`); a sent request can be cancelled from the list.",
  },
  {
    id: "11.13",
    standard: "RGAA 4.1",
    theme: "Formulaires",
    title:
      "La finalité d’un champ de saisie peut-elle être déduite pour faciliter le remplissage automatique des champs avec les données de l’utilisateur ?",
    verdict: "C",
    evidence:
      "The person's own fields carry their tokens (`username`, `current-password`, `new-password`, `email`, `tel`, `given-name`, `family-name`, `address-line1`, `postal-code`, `address-level2`, `country`, `one-time-code`), read by the review on the profile, security and sign-in pages. Issue 34's NOTIF part removed the person's tokens from the establishment suggestion (a shop's address is not the person's): `a11y-notifications.spec.ts`.",
  },
  {
    id: "12.1",
    standard: "RGAA 4.1",
    theme: "Navigation",
    title:
      "Chaque ensemble de pages dispose-t-il de deux systèmes de navigation différents, au moins (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      "Signed-in pages: the menus (side navigation « Navigation principale »: cards, wallets, plans' tabs, store locator; the header's notifications and « Aide »; the user menu; the footer's « Informations légales ») and the site map `/plan-du-site`, linked from every page's footer (`SiteFooter.tsx`, in the signed-in shell and `PublicShell.tsx` alike). Public pages: the footer's legal navigation and the same site map, which lists them. The wizard steps are a process (the RGAA's particular case). Checked on 2026-11-28: `a11y-site-map.spec.ts` reaches the map from the footer signed out and signed in, JS on and off.",
  },
  {
    id: "12.2",
    standard: "RGAA 4.1",
    theme: "Navigation",
    title:
      "Dans chaque ensemble de pages, le menu et les barres de navigation sont-ils toujours à la même place (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      "Every signed-in page is drawn by one layout (`routes/shell/layout.tsx`), every public page by `PublicShell.tsx`. Measured on 2026-11-28 on 11 signed-in pages (card, wallet, the three plans' tabs, the refund wizard, store locator, the three settings pages; JS on and off): the same source order everywhere (skip link, header, « Navigation principale », `main` — a page's own tabs inside it —, footer with « Informations légales »); at 1280 px the side navigation at the same place and size on each (x 40, y 270, 296 px wide), at 375 px the « Menu » button at the same place in the header on each; the panels open over their page and leave its navigation where it was.",
  },
  {
    id: "12.3",
    standard: "RGAA 4.1",
    theme: "Navigation",
    title: "La page « plan du site » est-elle pertinente ?",
    verdict: "C",
    evidence:
      "`/plan-du-site` (`routes/legal/site-map.tsx`) lists the menus' pages from the menus' own sources (the person's cards and wallets, `planTabs` of the account's features, `SETTINGS_TABS`, the user menu's feedback only when it shows there), in sections under `h2` headings as the menus group them, nested lists (the light version under « Profil »); signed out, the public pages. `a11y-site-map.spec.ts`: every portal link of the side navigation, header, user menu and footer is in the map, no plan page the account lacks, a link followed lands on its page; axe and the 320 px / text-spacing checks on each state, JS on and off.",
  },
  {
    id: "12.4",
    standard: "RGAA 4.1",
    theme: "Navigation",
    title: "Dans chaque ensemble de pages, la page « plan du site » est-elle atteignable de manière identique ?",
    verdict: "C",
    evidence:
      "One link « Plan du site » in the footer's « Informations légales » navigation of every page, signed in or not (one component, `SiteFooter.tsx`, same place and wording); followed from `/login` and from a signed-in page in `a11y-site-map.spec.ts`.",
  },
  {
    id: "12.5",
    standard: "RGAA 4.1",
    theme: "Navigation",
    title: "Dans chaque ensemble de pages, le moteur de recherche est-il atteignable de manière identique ?",
    verdict: "NA",
    evidence:
      "The portal has no search engine over its pages (the store locator searches shops, the refund wizard establishments: forms of their own pages, not a site search).",
  },
  {
    id: "12.6",
    standard: "RGAA 4.1",
    theme: "Navigation",
    title:
      "Les zones de regroupement de contenus présentes dans plusieurs pages web (zones d’en-tête, de navigation principale, de contenu principal, de pied de page et de moteur de recherche) peuvent-elles être atteintes ou évitées ?",
    verdict: "C",
    evidence:
      "`header`, `nav` (named), `main`, `footer` on every page (the review listed them on the 23 sample pages) and the skip link to `#main`.",
  },
  {
    id: "12.7",
    standard: "RGAA 4.1",
    theme: "Navigation",
    title:
      "Dans chaque page web, un lien d’évitement ou d’accès rapide à la zone de contenu principal est-il présent (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      '« Aller au contenu » first in every page (`routes/shell/layout.tsx`, `PublicShell.tsx`, `href="#main"`), found on the 23 sample pages; visible on focus; axe `bypass`/`skip-link` 0 violations.',
  },
  {
    id: "12.8",
    standard: "RGAA 4.1",
    theme: "Navigation",
    title: "Dans chaque page web, l’ordre de tabulation est-il cohérent ?",
    verdict: "C",
    evidence:
      "Tab and Shift+Tab through every step of the card, refund, bicycle and subscription wizards: each control in reading order, none skipped (`a11y-review.spec.ts`, JS on and off). Issue 34 finding 2 (« Voir plus » sending focus 45 Tab presses from the new notifications) fixed: focus on the first new one with JS, the fragment without (`a11y-notifications.spec.ts` « 12.8 »); panel focus returns: `a11y-panels.spec.ts`.",
  },
  {
    id: "12.9",
    standard: "RGAA 4.1",
    theme: "Navigation",
    title:
      "Dans chaque page web, la navigation ne doit pas contenir de piège au clavier. Cette règle est-elle respectée ?",
    verdict: "C",
    evidence:
      "At every wizard step Tab leaves the last control and Shift+Tab the first (`a11y-review.spec.ts`); dialogs close with Escape and « Fermer » (`a11y-dialogs.spec.ts`); the card frames hand focus back (cross-origin frames only hold their own fields).",
  },
  {
    id: "12.11",
    standard: "RGAA 4.1",
    theme: "Navigation",
    title:
      "Dans chaque page web, les contenus additionnels apparaissant au survol, à la prise de focus ou à l’activation d’un composant d’interface sont-ils atteignables au clavier ?",
    verdict: "C",
    evidence:
      "The user menu, « Actions sur la carte » and the mobile menu are `details`/`summary` or buttons opened by Enter/Space, their items reached by Tab (`a11y-keyboard.spec.ts` « Tab never lands on something hidden or covered », each menu open).",
  },
  {
    id: "13.1",
    standard: "RGAA 4.1",
    theme: "Consultation",
    title:
      "Pour chaque page web, l’utilisateur a-t-il le contrôle de chaque limite de temps modifiant le contenu (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      "Issue 34 finding 1 fixed by `Waiting.tsx` (decision 0067): without JS a refresh of 20 s at the fastest with « Vérifier maintenant » and a way to stop it; with JS no reload, a live region, focus kept (`a11y-waiting.spec.ts` « 13.1 »: receipt step JS off, light version, JS on, the support chat). Flash messages stay (`a11y-panels.spec.ts` finding 2); the sign-in code's end time is said (`a11y-forms.spec.ts`).",
  },
  {
    id: "13.2",
    standard: "RGAA 4.1",
    theme: "Consultation",
    title:
      "Dans chaque page web, l’ouverture d’une nouvelle fenêtre ne doit pas être déclenchée sans action de l’utilisateur. Cette règle est-elle respectée ?",
    verdict: "C",
    evidence:
      "New tabs open only from a link or button the person activates (the partners' buttons on « Services et partenaires », the links of `NewTabLink.tsx`), each saying « (nouvel onglet) » in its name; no `window.open` on load.",
  },
  {
    id: "13.7",
    standard: "RGAA 4.1",
    theme: "Consultation",
    title:
      "Dans chaque page web, les changements brusques de luminosité ou les effets de flash sont-ils correctement utilisés ?",
    verdict: "NA",
    evidence:
      "No flashing content: the only animations are the page loader's bar and the skeletons' slow shimmer, no change of luminosity.",
  },
  {
    id: "13.8",
    standard: "RGAA 4.1",
    theme: "Consultation",
    title: "Dans chaque page web, chaque contenu en mouvement ou clignotant est-il contrôlable par l’utilisateur ?",
    verdict: "C",
    evidence:
      "The skeleton shimmer and page loader run only while a page loads (less than 5 s) and stop under `prefers-reduced-motion: reduce`; the drag animation too (`SortableWallets.tsx`); the review found no animation or transition over 10 ms on the card page with reduced motion (also LAYOUT's `a11y-reflow.spec.ts` reduced-motion journey).",
  },
  {
    id: "13.9",
    standard: "RGAA 4.1",
    theme: "Consultation",
    title:
      "Dans chaque page web, le contenu proposé est-il consultable quelle que soit l’orientation de l’écran (portrait ou paysage) (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      "No orientation lock: no `orientation` media query or screen-orientation script in `app/`; the sample read at 375 × 740 (portrait) and 740 × 375 / 1280 × 800 (landscape).",
  },
  {
    id: "13.10",
    standard: "RGAA 4.1",
    theme: "Consultation",
    title:
      "Dans chaque page web, les fonctionnalités utilisables ou disponibles au moyen d’un geste complexe peuvent-elles être également disponibles au moyen d’un geste simple (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      "No multipoint or path gesture; the wallets' priority (drag-and-drop with JS) has « Monter » / « Descendre » buttons in a GET form (`SortableWallets.tsx`, `balance-and-priority.spec.ts`).",
  },
  {
    id: "13.11",
    standard: "RGAA 4.1",
    theme: "Consultation",
    title:
      "Dans chaque page web, les actions déclenchées au moyen d’un dispositif de pointage sur un point unique de l’écran peuvent-elles faire l’objet d’une annulation (hors cas particuliers) ?",
    verdict: "C",
    evidence:
      "Actions are native buttons and links (activated on release); the menus' outside-click closing (`useDisclosureMenu.ts`) waits for the `pointerup` of the same press; destructive actions ask for confirmation.",
  },
  {
    id: "2.4.11",
    standard: "WCAG 2.2",
    theme: "Navigation",
    title:
      "Focus non masqué (minimum) : l’élément qui a le focus n’est pas entièrement caché par un contenu de l’auteur.",
    verdict: "C",
    evidence:
      "`a11y-keyboard.spec.ts` « Tab never lands on something hidden or covered »: at 320 px with each menu open and at 1024 × 500, the focused element is inside the viewport and `elementFromPoint` at the centre of each box is the element; no sticky or fixed bar over the content (the consent banner is in the flow).",
  },
  {
    id: "2.5.7",
    standard: "WCAG 2.2",
    theme: "Scripts",
    title:
      "Mouvements de glissement : toute fonction utilisant un glissement peut être réalisée avec un pointeur sans glisser.",
    verdict: "C",
    evidence:
      "The one drag in the portal, the wallets' priority order, has « Monter » / « Descendre » buttons on each row, with and without JS (`SortableWallets.tsx`, `balance-and-priority.spec.ts`).",
  },
  {
    id: "2.5.8",
    standard: "WCAG 2.2",
    theme: "Scripts",
    title:
      "Taille des cibles (minimum) : les cibles mesurent au moins 24 × 24 px CSS, sauf exceptions (espacement, en ligne…).",
    verdict: "C",
    evidence:
      "The review measured every link, button and field on the 23 sample pages at 1280 px: fields are 44 px high; below 24 px in either side only links inside a sentence (inline exception) and the 20 × 20 checkboxes and radios, each within a `label` that is part of its target and at least 44 px from the next one's centre (spacing exception), e.g. the notification preferences at 1280 and 320 px.",
  },
  {
    id: "3.3.7",
    standard: "WCAG 2.2",
    theme: "Formulaires",
    title:
      "Saisie redondante : une information déjà saisie dans le même processus est reprise ou proposée, sauf exceptions.",
    verdict: "C",
    evidence:
      "Wizards keep what was typed across steps and return (drafts saved per step; the IBAN on file is offered, not asked again). Issue 34 finding 6 (the subscription's valid PDF thrown away when the other file is refused) fixed: the file is kept and listed with « Supprimer », JS on and off: `a11y-dialogs.spec.ts` « WCAG 3.3.7 ».",
  },
  {
    id: "3.3.8",
    standard: "WCAG 2.2",
    theme: "Formulaires",
    title:
      "Authentification accessible (minimum) : aucune étape d’authentification ne repose sur un test cognitif, sauf alternative ou aide.",
    verdict: "C",
    evidence:
      'Sign-in is e-mail + password with `autocomplete="username"`/`"current-password"` (password managers fill it; paste is not blocked), then a 6-digit code sent by e-mail or SMS that can be pasted (`autocomplete="one-time-code"`, spaces accepted) or a passkey; no CAPTCHA, no puzzle (`tests/e2e/auth.spec.ts`, `tests/e2e/passkeys-sign-in.spec.ts`).',
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
      fr: "Chromium 156 avec le clavier seul, JavaScript activé puis désactivé",
      en: "Chromium 156 with the keyboard only, JavaScript on then off",
      nl: "Chromium 156 met alleen het toetsenbord, JavaScript aan en daarna uit",
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
