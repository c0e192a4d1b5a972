/**
 * What a French receipt's text says (the text an OCR or a PDF gave): the ticket's date, its total in
 * cents and the merchant's name (its first meaningful line). Pure; the reading provider gives the text
 * (decision 0025). Every answer is a suggestion the employee checks and may change.
 */
export interface ReceiptFacts {
  /** YYYY-MM-DD, not after `today`. */
  ticketDate: string | null;
  /** Integer cents. */
  amount: number | null;
  companyName: string | null;
}

/** Upper case, no accents: what the keywords are matched on. */
function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toUpperCase();
}

/** OCR's usual confusions inside numbers: O for 0, l or I for 1 (only between digits and separators). */
function fixDigits(line: string): string {
  return line
    .replace(/(?<=[\d/.,:])[Oo](?=[\d/.,:]|\b)|(?<=\b)[Oo](?=\d)/g, "0")
    .replace(/(?<=\d[/.,]?)[lI|](?=[\d/.,])|(?<=[/.,])[lI|](?=\d)/g, "1");
}

export function parseReceiptText(text: string, today: string): ReceiptFacts {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+/g, " ").trim())
    .filter(Boolean);
  return {
    ticketDate: ticketDateOf(lines, today),
    amount: totalOf(lines),
    companyName: merchantOf(lines),
  };
}

// ---- Date -------------------------------------------------------------------------------------

const MONTHS: Record<string, number> = {
  JANV: 1,
  JANVIER: 1,
  FEV: 2,
  FEVR: 2,
  FEVRIER: 2,
  MARS: 3,
  AVR: 4,
  AVRIL: 4,
  MAI: 5,
  JUIN: 6,
  JUIL: 7,
  JUILLET: 7,
  AOUT: 8,
  SEPT: 9,
  SEPTEMBRE: 9,
  OCT: 10,
  OCTOBRE: 10,
  NOV: 11,
  NOVEMBRE: 11,
  DEC: 12,
  DECEMBRE: 12,
};
/** Lines whose date is not the ticket's: an expiry, a warranty, a return or payment deadline. */
const OTHER_DATE =
  /EXPIR|VALABLE|VALIDITE|JUSQU|ECHEANCE|AVANT LE|GARANTIE|RETOUR|PEREMPTION|DLC|DLUO|LIVRAISON|NAISSANCE/;

function isoDate(day: number, month: number, year: number): string | null {
  if (year < 100) year += 2000;
  if (month < 1 || month > 12 || day < 1 || year < 2000 || year > 2099) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCDate() !== day || date.getUTCMonth() !== month - 1) return null;
  return date.toISOString().slice(0, 10);
}

function ticketDateOf(lines: string[], today: string): string | null {
  let best: { date: string; score: number } | null = null;
  lines.forEach((raw, index) => {
    const line = fixDigits(raw);
    const folded = fold(line);
    if (OTHER_DATE.test(folded)) return;
    const found: string[] = [];
    for (const m of line.matchAll(/(?<![\d])(\d{1,2}) ?([/.-]) ?(\d{1,2}) ?\2 ?(\d{4}|\d{2})(?![\d])/g)) {
      const date = isoDate(Number(m[1]), Number(m[3]), Number(m[4]));
      if (date) found.push(date);
    }
    for (const m of folded.matchAll(/(?<!\d)(\d{1,2}) ([A-Z]{3,9})\.? (\d{4})(?!\d)/g)) {
      const month = MONTHS[m[2]!];
      const date = month ? isoDate(Number(m[1]), month, Number(m[3])) : null;
      if (date) found.push(date);
    }
    for (const date of found) {
      if (date > today) continue;
      // The ticket's date is printed with its time, or named; earlier lines win ties (the header).
      let score = 0;
      if (/\d{1,2} ?[:hH] ?\d{2}/.test(line)) score += 2;
      if (/\bDATE\b|\bLE\b/.test(folded)) score += 1;
      score -= index / 1000;
      if (!best || score > best.score) best = { date, score };
    }
  });
  return (best as { date: string } | null)?.date ?? null;
}

// ---- A transport pass's period ------------------------------------------------------------------

/** The days a subscription covers, as a transport pass or its proof of payment prints them. */
export interface PassPeriod {
  /** YYYY-MM-DD, the first day covered. */
  start: string;
  /** YYYY-MM-DD, the last day covered (on or after the start). */
  end: string;
}

/** A numeric day (01/11/2026, 1.11.26, 01-11-2026) or a printed one (1er novembre 2026), on a folded line. */
const DAY =
  /(?<![\d])(\d{1,2}) ?([/.-]) ?(\d{1,2}) ?\2 ?(\d{4}|\d{2})(?![\d])|(?<!\d)(\d{1,2})(?:ER)? ([A-Z]{3,9})\.? (\d{4})(?!\d)/g;
/** A month without its day: "NOVEMBRE 2026", "NOV. 2026", "11/2026". */
const MONTH_OF_YEAR = /(?<![\d/.-])(?:([A-Z]{3,9})\.?|(\d{1,2}) ?\/) ?(\d{4})(?!\d)/g;
/** What a period line says between its two days: "du … au …", "… - …", "… jusqu'au …". */
const BETWEEN = /^\s*(?:AU|A|-|–|JUSQU ?['’]? ?AU|JUSQU ?['’]? ?A)\s*$/;
/** A pass bought for a month, or for a year. */
const MONTHLY = /\bMENSUEL(?:LE)?\b|\bMOIS\b/;
const YEARLY = /\bANNUEL(?:LE)?\b/;
/** Lines whose month is not the pass's: an expiry, a birth date, a deadline. */
const NOT_PASS_MONTH = /EXPIR|NAISSANCE|ECHEANCE|GARANTIE|RETOUR|EMIS|ACHAT|EDITE/;
/** A period is never longer than a yearly pass and a little (what the allowance's rules accept is theirs). */
const LONGEST_PERIOD_DAYS = 400;

function daysOn(folded: string): { date: string; from: number; to: number }[] {
  const found: { date: string; from: number; to: number }[] = [];
  for (const m of folded.matchAll(DAY)) {
    const date = m[1]
      ? isoDate(Number(m[1]), Number(m[3]), Number(m[4]))
      : MONTHS[m[6]!]
        ? isoDate(Number(m[5]), MONTHS[m[6]!]!, Number(m[7]))
        : null;
    if (date) found.push({ date, from: m.index, to: m.index + m[0].length });
  }
  return found;
}

const daysBetween = (start: string, end: string) => (Date.parse(end) - Date.parse(start)) / 86_400_000;

/** The last day of a month counted from `month` of `year` (1-based), `months` later (0: that month). */
function lastDayOf(year: number, month: number, months = 0): string {
  return new Date(Date.UTC(year, month + months, 0)).toISOString().slice(0, 10);
}

/** "du 01/11/2026 au 30/11/2026", "Valable du 1er sept. 2026 au 31 août 2027", "Période : 01/11/2026 - 30/11/2026". */
function periodOnLine(folded: string): PassPeriod | null {
  const days = daysOn(folded);
  for (let i = 0; i + 1 < days.length; i++) {
    const [from, to] = [days[i]!, days[i + 1]!];
    if (!BETWEEN.test(folded.slice(from.to, to.from))) continue;
    const span = daysBetween(from.date, to.date);
    if (span >= 0 && span <= LONGEST_PERIOD_DAYS) return { start: from.date, end: to.date };
  }
  return null;
}

/** "Forfait Navigo Mois novembre 2026", "Abonnement mensuel 11/2026", "Abonnement annuel septembre 2026". */
function periodOfMonth(folded: string, yearly: boolean): PassPeriod | null {
  for (const m of folded.matchAll(MONTH_OF_YEAR)) {
    const month = m[1] ? MONTHS[m[1]] : Number(m[2]);
    const year = Number(m[3]);
    if (!month || month < 1 || month > 12 || year < 2000 || year > 2099) continue;
    const start = isoDate(1, month, year)!;
    return { start, end: lastDayOf(year, month, yearly ? 11 : 0) };
  }
  return null;
}

/**
 * The period a transport pass or its proof says it covers (issue 31 §5), or null when it says none: two days
 * joined as a period on one line first (the lines that name it, "valable", "validité", "période", "du", first),
 * else a month named on a line of a monthly pass (that month) or of a yearly one (twelve months from it).
 * Pure; the caller checks it against the allowance's rules before proposing it.
 */
export function passPeriodOf(text: string): PassPeriod | null {
  const lines = text
    .split(/\r?\n/)
    .map((l) => fold(fixDigits(l.replace(/\s+/g, " ").trim())))
    .filter(Boolean);
  const named = (line: string) => /VALABLE|VALIDITE|PERIODE|\bDU\b/.test(line);
  for (const line of [...lines.filter(named), ...lines.filter((l) => !named(l))]) {
    const period = periodOnLine(line);
    if (period) return period;
  }
  const whole = lines.join(" ");
  const yearly = YEARLY.test(whole) && !MONTHLY.test(whole);
  if (!yearly && !MONTHLY.test(whole)) return null;
  for (const line of lines) {
    // A line with a whole day (the ticket's own date), a deadline or a birth date does not name the pass's month.
    if (NOT_PASS_MONTH.test(line) || daysOn(line).length) continue;
    const period = periodOfMonth(line, yearly);
    if (period) return period;
  }
  return null;
}

// ---- Total ------------------------------------------------------------------------------------

/** Keywords of a total, strongest first. */
const TOTALS: [RegExp, number][] = [
  [/\bNET A PAYER\b|\bTOTAL TTC\b|\bMONTANT TTC\b|\bTOTAL A PAYER\b/, 6],
  [/\bA PAYER\b|\bTOTAL EUR\b|\bTOTAL €/, 5],
  [/\bTOTAL\b/, 4],
  [/\bMONTANT\b|\bPRIX\b|\bTARIF\b/, 3],
  [/\bCB\b|\bCARTE\b|\bCARTE BANCAIRE\b|\bESPECES\b|\bPAIEMENT\b|\bREGLEMENT\b/, 1],
];
/** Lines that carry other amounts: VAT, before tax, the change given back, a part ("dont"), a subtotal. */
const NOT_TOTAL =
  /\bTVA\b|\bHT\b|\bH\.T\b|\bRENDU|\bMONNAIE\b|\bDONT\b|\bSOUS[ -]?TOTAL\b|\bREMISE\b|\bECONOMIE|\bTAUX\b/;
const AMOUNT = /(?<![\d.,])(\d{1,3}(?:[  .]\d{3})+|\d+) ?[,.] ?(\d{2})(?![\d%])/g;

function amountsOf(line: string): number[] {
  const cleaned = fixDigits(line).replace(/\d+(?:[,.]\d+)? ?%/g, " ");
  return [...cleaned.matchAll(AMOUNT)]
    .map((m) => Number(m[1]!.replace(/[  .]/g, "")) * 100 + Number(m[2]))
    .filter((cents) => cents > 0 && cents < 100_000_000);
}

function totalOf(lines: string[]): number | null {
  let best: { amount: number; rank: number } | null = null;
  lines.forEach((line, index) => {
    const folded = fold(line);
    if (NOT_TOTAL.test(folded)) return;
    const rank = TOTALS.find(([re]) => re.test(folded))?.[1];
    if (!rank) return;
    // The amount on the line, or on the next one (a total printed below its label).
    let amounts = amountsOf(line);
    if (!amounts.length && lines[index + 1] && !NOT_TOTAL.test(fold(lines[index + 1]!)))
      amounts = amountsOf(lines[index + 1]!);
    const amount = amounts[amounts.length - 1];
    if (amount === undefined) return;
    if (!best || rank > best.rank || (rank === best.rank && amount > best.amount)) best = { amount, rank };
  });
  if (best) return (best as { amount: number }).amount;
  // No total named: the largest amount given in euros.
  const euros = lines.filter((l) => /€|\bEUR\b/i.test(l) && !NOT_TOTAL.test(fold(l))).flatMap((l) => amountsOf(l));
  return euros.length ? Math.max(...euros) : null;
}

// ---- Merchant ---------------------------------------------------------------------------------

const NOT_NAME =
  /\b(TICKET|FACTURE|RECU|BIENVENUE|BONJOUR|SIRET|SIREN|TVA|TEL|FAX|WWW|HTTPS?|CAISSE|CAISSIER|DUPLICATA|CLIENT|COMMANDE|TABLE|DATE)\b|@/;

function merchantOf(lines: string[]): string | null {
  for (const raw of lines.slice(0, 8)) {
    // A line with a price or a total's words is the ticket's body: the name was above it.
    if (/\d[,.]\d{2}\b/.test(raw) || NOT_TOTAL.test(fold(raw)) || TOTALS.some(([re]) => re.test(fold(raw)))) break;
    const line = raw
      .replace(/[^\p{L}\p{N}&'’ .-]+/gu, " ")
      .replace(/\s+/g, " ")
      .replace(/^[\s.'’-]+|[\s.'’-]+$/g, "");
    const letters = (line.match(/\p{L}/gu) ?? []).length;
    if (letters < 3 || letters < line.replace(/\s/g, "").length * 0.6) continue;
    if (NOT_NAME.test(fold(line))) continue;
    if (/\d{5}/.test(line)) continue; // an address with its postcode
    return line.slice(0, 80);
  }
  return null;
}
