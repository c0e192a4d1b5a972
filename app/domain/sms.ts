import { PHONE_COUNTRIES } from "./countries";

/**
 * Text messages (decision 0062): which numbers can receive them, and how long a text may be to leave as one SMS.
 * Browser-safe: the settings pages and the SMS adapter share it.
 */

/** An E.164 number: "+", a country code not starting with 0, 8 to 15 digits in all. */
const E164 = /^\+[1-9]\d{7,14}$/;

/**
 * The mobile numbers of each country the phone field offers (PHONE_COUNTRIES), after the dialling code: the
 * national numbering plans' mobile ranges (ARCEP for France: 06 and 07; 01-05 and 09 are landlines and boxes).
 */
const MOBILE_RANGES: Readonly<Record<string, RegExp>> = {
  "+33": /^[67]\d{8}$/,
  "+32": /^4[5-9]\d{7}$/,
  "+352": /^6[2-9]1\d{6}$/,
  "+41": /^7[5-9]\d{7}$/,
  "+377": /^[46]\d{7}$/,
  "+49": /^1(?:5\d{9}|6\d{7,8}|7\d{8})$/,
  "+34": /^(?:6\d|7[1-4])\d{7}$/,
  "+39": /^3\d{8,9}$/,
  "+351": /^9[1236]\d{7}$/,
  "+31": /^6[1-58]\d{7}$/,
  "+44": /^7(?:[1-57-9]\d{8}|624\d{6})$/,
};

/**
 * What a number is for text messages: `mobile` (it can receive them), `notMobile` (a landline, a box, a special
 * number of a country we know), `otherCountry` (a country outside PHONE_COUNTRIES: its ranges are unknown here),
 * `invalid` (not an E.164 number).
 */
export type SmsNumberKind = "mobile" | "notMobile" | "otherCountry" | "invalid";

export function smsNumberKind(phone: string): SmsNumberKind {
  if (!E164.test(phone)) return "invalid";
  // The longest dialling code first: "+352…" is Luxembourg, not a "+35" that does not exist.
  const country = [...PHONE_COUNTRIES]
    .sort((a, b) => b.dial.length - a.dial.length)
    .find((c) => phone.startsWith(c.dial));
  if (!country) return "otherCountry";
  return MOBILE_RANGES[country.dial]?.test(phone.slice(country.dial.length)) ? "mobile" : "notMobile";
}

/** The GSM 03.38 default alphabet: one 7-bit unit each. */
const GSM7_BASIC = new Set(
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà",
);
/** Its extension table: two units each (an escape, then the character). */
const GSM7_EXTENSION = new Set("^{}\\[~]|€\f");

/** Typography the catalogue uses that GSM-7 lacks, written with its plain equivalent (nothing else changes). */
const PLAIN_TYPOGRAPHY: readonly [RegExp, string][] = [
  [/[\u2018\u2019\u02BC]/g, "'"],
  [/[\u00AB\u00BB\u201C\u201D]/g, '"'],
  [/[\u00A0\u202F\u2009]/g, " "],
  [/[\u2013\u2014]/g, "-"],
  [/\u2026/g, "..."],
];

/**
 * The text as it leaves by SMS: typographic apostrophes, quotes, thin spaces and dashes in their plain form, and
 * blank lines (an e-mail's paragraphs) as one space, so that a French sentence stays in the 7-bit alphabet.
 */
export function smsText(text: string): string {
  let plain = text;
  for (const [pattern, replacement] of PLAIN_TYPOGRAPHY) plain = plain.replace(pattern, replacement);
  return plain.replace(/\s*\n\s*/g, " ").trim();
}

/** The alphabet a text needs: GSM-7 when every character is in it, UCS-2 (UTF-16) otherwise. */
export function smsEncoding(text: string): "gsm7" | "ucs2" {
  for (const char of text) if (!GSM7_BASIC.has(char) && !GSM7_EXTENSION.has(char)) return "ucs2";
  return "gsm7";
}

/** One SMS holds 160 GSM-7 units or 70 UCS-2 units; a longer text is cut in parts of 153 or 67 (their header). */
export function smsSegments(text: string): number {
  if (text === "") return 1;
  if (smsEncoding(text) === "ucs2") return text.length <= 70 ? 1 : Math.ceil(text.length / 67);
  let units = 0;
  for (const char of text) units += GSM7_EXTENSION.has(char) ? 2 : 1;
  return units <= 160 ? 1 : Math.ceil(units / 153);
}

/** Why a number cannot be chosen for the codes by SMS (spec 001 §2.4, §4; decision 0062): catalogue keys. */
export const SMS_NUMBER_REFUSALS: Readonly<Record<Exclude<SmsNumberKind, "mobile">, string>> = {
  notMobile: "sms.errors.notMobile",
  otherCountry: "sms.errors.otherCountry",
  invalid: "sms.errors.invalid",
};

/** The reason (a catalogue key) this number cannot receive the codes by SMS, or null for a mobile. */
export function smsNumberRefusal(phone: string): string | null {
  const kind = smsNumberKind(phone);
  return kind === "mobile" ? null : SMS_NUMBER_REFUSALS[kind];
}
