import { describe, expect, test } from "vitest";
import { categoryEligible } from "./authorisation";
import { MERCHANT_PRESETS, parseTerminalAmount } from "./terminal";
import { terminalPaymentSchema } from "./terminal-schemas";

const valid = {
  card: "4242",
  amount: "12,50",
  currency: "eur",
  merchant: "restaurant",
  day: "2026-11-24",
  time: "12:30",
  entryMode: "contactless",
};

describe("the sandbox terminal's inputs", () => {
  test("amounts in euros, French comma or point; zero, negative, absurd or malformed refused", () => {
    expect(parseTerminalAmount("12,50")).toEqual({ cents: 1250 });
    expect(parseTerminalAmount(" 30 ")).toEqual({ cents: 3000 });
    expect(parseTerminalAmount("7.5")).toEqual({ cents: 750 });
    expect(parseTerminalAmount("")).toEqual({ error: "terminal.errors.amountRequired" });
    expect(parseTerminalAmount("0")).toEqual({ error: "terminal.errors.amountPositive" });
    expect(parseTerminalAmount("-3")).toEqual({ error: "terminal.errors.amountPositive" });
    expect(parseTerminalAmount("10000,01")).toEqual({ error: "terminal.errors.amountTooLarge" });
    expect(parseTerminalAmount("12,505")).toEqual({ error: "terminal.errors.amountFormat" });
    expect(parseTerminalAmount("douze")).toEqual({ error: "terminal.errors.amountFormat" });
  });

  test("each preset's category code is one its wallet type accepts", () => {
    const expected: Record<string, string> = {
      restaurant: "meal",
      bakery: "meal",
      supermarket: "meal",
      trainStation: "mobility",
      fuelStation: "mobility",
      bookshop: "culture",
      cinema: "culture",
      onlineShop: "gift",
    };
    for (const preset of MERCHANT_PRESETS)
      expect(categoryEligible(expected[preset.id]!, preset.code, "2026-11-24")).toBe(true);
    const fuel = MERCHANT_PRESETS.find((p) => p.id === "fuelStation")!;
    expect(categoryEligible("gift", fuel.code, "2026-11-24")).toBe(false);
  });

  test("a valid payment: the preset's merchant, the Paris instant, no PIN unless chip and PIN", () => {
    const parsed = terminalPaymentSchema.safeParse(valid);
    expect(parsed.success && parsed.data).toMatchObject({
      lastFour: "4242",
      amount: 1250,
      currency: "EUR",
      merchant: { categoryCode: "5812", name: "Le Bistrot des Halles", country: "FR" },
      at: new Date("2026-11-24T11:30:00Z"),
      pin: null,
      failNextCharge: false,
    });
  });

  test("every bad field is refused at once, by name", () => {
    const parsed = terminalPaymentSchema.safeParse({
      ...valid,
      card: "42a2",
      amount: "-1",
      currency: "XYZ",
      merchant: "custom",
      categoryCode: "58",
      entryMode: "chip_and_pin",
      pin: "12",
    });
    expect(parsed.success).toBe(false);
    const issues = Object.fromEntries((parsed.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));
    expect(issues).toMatchObject({ card: "terminal.errors.card" });
    const rest = terminalPaymentSchema.safeParse({
      ...valid,
      amount: "-1",
      currency: "XYZ",
      merchant: "custom",
      categoryCode: "58",
      entryMode: "chip_and_pin",
      pin: "12",
    });
    expect(Object.fromEntries((rest.error?.issues ?? []).map((i) => [i.path.join("."), i.message]))).toEqual({
      amount: "terminal.errors.amountPositive",
      currency: "terminal.errors.currency",
      categoryCode: "terminal.errors.categoryCode",
      pin: "terminal.errors.pin",
    });
  });
});
