import { MAX_AUTHORISATION_AMOUNT, type EntryMode } from "./authorisation";
import { parseEuros } from "./money";

/**
 * The sandbox payment terminal (issue 17 §5, decision 0037): what `/dev/terminal` and `npm run sandbox:pay` accept.
 * Errors are catalogue keys (`terminal.errors.*`), as the form contract wants (decision 0021). The forms' schemas
 * are in terminal-schemas.ts: the page's browser code reads these lists, and zod stays on the server.
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
export const CUSTOM_MERCHANT = "custom";
export const ENTRY_MODES = ["chip_and_pin", "contactless", "online"] as const satisfies readonly EntryMode[];

export const TEXT_MAX = 60;

/** Cents from "12,50" or "12.50"; the error's catalogue key otherwise. */
export function parseTerminalAmount(text: string): { cents: number } | { error: string } {
  const cents = parseEuros(text);
  if (text.trim() === "") return { error: "terminal.errors.amountRequired" };
  if (cents === null) return { error: "terminal.errors.amountFormat" };
  if (cents <= 0) return { error: "terminal.errors.amountPositive" };
  if (cents > MAX_AUTHORISATION_AMOUNT) return { error: "terminal.errors.amountTooLarge" };
  return { cents };
}
