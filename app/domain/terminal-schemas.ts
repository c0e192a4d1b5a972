import { z } from "zod";
import { isCategoryCode } from "./authorisation";
import { CUSTOM_MERCHANT, ENTRY_MODES, MERCHANT_PRESETS, parseTerminalAmount, TEXT_MAX } from "./terminal";
import { parisInstant } from "./dates";

/** The sandbox terminal's forms (terminal.ts), checked on the server. */

/** Is this a currency ISO 4217 knows (the engine then accepts euros only, a decline with its reason)? */
function knownCurrency(code: string): boolean {
  return Intl.supportedValuesOf("currency").includes(code);
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
