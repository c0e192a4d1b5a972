import { z } from "zod";
import { isCategoryCode, MAX_AUTHORISATION_AMOUNT, type EntryMode } from "./authorisation";
import { parseEuros } from "./payment-methods";
import { TIME_ZONE } from "./timezone";

/**
 * The sandbox payment terminal (issue 17 §5, decision 0037): what `/dev/terminal` and `npm run sandbox:pay` accept.
 * Errors are catalogue keys (`terminal.errors.*`), as the form contract wants (decision 0021).
 */

/** Merchant presets, each with a category code of `MCC` (domain/authorisation.ts) for the wallet type it shows. */
export const MERCHANT_PRESETS = [
  { id: "restaurant", code: "5812", name: "Le Bistrot des Halles", city: "Lyon" }, // meal
  { id: "bakery", code: "5462", name: "Boulangerie Pain d’Or", city: "Lyon" }, // meal
  { id: "supermarket", code: "5411", name: "Supermarché du Centre", city: "Lyon" }, // meal (groceries, 2026)
  { id: "trainStation", code: "4112", name: "Gare de Lyon Part-Dieu", city: "Lyon" }, // mobility
  { id: "fuelStation", code: "5541", name: "Station Total Confluence", city: "Lyon" }, // mobility, never gift
  { id: "bookshop", code: "5942", name: "Librairie Passages", city: "Lyon" }, // culture
  { id: "cinema", code: "7832", name: "Cinéma Comoedia", city: "Lyon" }, // culture
  { id: "onlineShop", code: "5999", name: "Boutique en ligne", city: "Paris" }, // gift (any shop)
] as const;
export type MerchantPreset = (typeof MERCHANT_PRESETS)[number]["id"];
export const CUSTOM_MERCHANT = "custom";
export const ENTRY_MODES = ["chip_and_pin", "contactless", "online"] as const satisfies readonly EntryMode[];

const TEXT_MAX = 60;

/** Is this a currency ISO 4217 knows (the engine then accepts euros only, a decline with its reason)? */
function knownCurrency(code: string): boolean {
  return Intl.supportedValuesOf("currency").includes(code);
}

/** Cents from "12,50" or "12.50"; the error's catalogue key otherwise. */
export function parseTerminalAmount(text: string): { cents: number } | { error: string } {
  const cents = parseEuros(text);
  if (text.trim() === "") return { error: "terminal.errors.amountRequired" };
  if (cents === null) return { error: "terminal.errors.amountFormat" };
  if (cents <= 0) return { error: "terminal.errors.amountPositive" };
  if (cents > MAX_AUTHORISATION_AMOUNT) return { error: "terminal.errors.amountTooLarge" };
  return { cents };
}

/** A Paris wall-clock day and time (2026-11-24, 12:30) → the instant. */
export function parisInstant(day: string, time: string): Date | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const [y, mo, da, h, mi] = [d[1], d[2], d[3], t[1], t[2]].map(Number) as [number, number, number, number, number];
  if (mo < 1 || mo > 12 || da < 1 || da > 31 || h > 23 || mi > 59) return null;
  const wall = Date.UTC(y, mo - 1, da, h, mi);
  if (new Date(wall).getUTCDate() !== da) return null;
  // The zone's offset at that instant, found twice (the second pass settles a guess across a change of offset).
  let instant = wall;
  for (let i = 0; i < 2; i += 1) instant = wall - offsetAt(instant);
  return new Date(instant);
}

function offsetAt(instant: number): number {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(instant));
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute")) - instant;
}

/** Now in Paris as the form's defaults: { day: "2026-11-24", time: "12:30" }. */
export function parisNow(now = new Date()): { day: string; time: string } {
  const local = new Date(now.getTime() + offsetAt(now.getTime()));
  const iso = local.toISOString();
  return { day: iso.slice(0, 10), time: iso.slice(11, 16) };
}

const text = (max: number) => z.string().trim().max(max, { error: "terminal.errors.tooLong" }).default("");

/** The payment form: every refusal names its field. */
export const terminalPaymentSchema = z
  .object({
    card: z
      .string({ error: "terminal.errors.cardRequired" })
      .trim()
      .regex(/^\d{4}$/, { error: "terminal.errors.card" }),
    holder: z.email({ error: "terminal.errors.holder" }).max(254).optional(),
    amount: z.string({ error: "terminal.errors.amountRequired" }),
    // Checked with the amount, the code, the day and the PIN below, so that all their errors show at once.
    currency: z.string().trim().toUpperCase().default("EUR"),
    merchant: z.enum([...MERCHANT_PRESETS.map((p) => p.id), CUSTOM_MERCHANT], { error: "terminal.errors.merchant" }),
    categoryCode: z.string().trim().optional(),
    merchantName: text(TEXT_MAX),
    merchantCity: text(TEXT_MAX),
    day: z.string({ error: "terminal.errors.day" }),
    time: z.string({ error: "terminal.errors.time" }),
    entryMode: z.enum(ENTRY_MODES, { error: "terminal.errors.entryMode" }),
    pin: z.string().trim().optional(),
    failNextCharge: z.literal("on").optional(),
  })
  .transform((value, ctx) => {
    if (!/^[A-Z]{3}$/.test(value.currency) || !knownCurrency(value.currency))
      ctx.addIssue({ code: "custom", path: ["currency"], message: "terminal.errors.currency" });
    const amount = parseTerminalAmount(value.amount);
    if ("error" in amount) ctx.addIssue({ code: "custom", path: ["amount"], message: amount.error });
    const preset = MERCHANT_PRESETS.find((p) => p.id === value.merchant);
    const code = value.categoryCode || preset?.code || "";
    if (!isCategoryCode(code))
      ctx.addIssue({ code: "custom", path: ["categoryCode"], message: "terminal.errors.categoryCode" });
    const at = parisInstant(value.day, value.time);
    if (!at) ctx.addIssue({ code: "custom", path: ["day"], message: "terminal.errors.dateTime" });
    if (value.entryMode === "chip_and_pin" && !/^\d{4}$/.test(value.pin ?? ""))
      ctx.addIssue({ code: "custom", path: ["pin"], message: "terminal.errors.pin" });
    if ("error" in amount || !at || !isCategoryCode(code)) return z.NEVER;
    return {
      lastFour: value.card,
      holder: value.holder ?? null,
      amount: amount.cents,
      currency: value.currency,
      merchant: {
        name: value.merchantName || preset?.name || "Commerçant",
        city: value.merchantCity || preset?.city || "",
        country: "FR",
        categoryCode: code,
      },
      at,
      entryMode: value.entryMode,
      pin: value.entryMode === "chip_and_pin" ? (value.pin ?? "") : null,
      failNextCharge: value.failNextCharge === "on",
    };
  });

export type TerminalPayment = z.output<typeof terminalPaymentSchema>;

/** Capture and merchant refund take an amount; reversal does not. */
export const terminalLifecycleSchema = z.object({
  authorization: z.string({ error: "terminal.errors.authorization" }).trim().min(1).max(100),
  amount: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return null;
      const parsed = parseTerminalAmount(raw);
      if ("error" in parsed) {
        ctx.addIssue({ code: "custom", message: parsed.error });
        return z.NEVER;
      }
      return parsed.cents;
    }),
});
