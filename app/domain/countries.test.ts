import { describe, expect, test } from "vitest";
import { PHONE_COUNTRIES, internationalPhone } from "./countries";

/**
 * A phone number as people type it, in the international form the platform stores (E.164) — spec 001 §2.3
 * (the mobile phone, default country fr) and §5 "Profile save"; the issue 33 audit found "33612345678" stored
 * as "+3333612345678".
 */
describe("internationalPhone", () => {
  test("France: every way of typing one mobile number gives +33612345678", () => {
    for (const typed of [
      "06 12 34 56 78",
      "0612345678",
      "06.12.34.56.78",
      "06-12-34-56-78",
      "612345678",
      "33612345678",
      "33 6 12 34 56 78",
      "0033612345678",
      "00 33 6 12 34 56 78",
      "+33612345678",
      "+33 6 12 34 56 78",
      "+33 (0)6 12 34 56 78",
      "+33 06 12 34 56 78",
      "0033 06 12 34 56 78",
      " 06 12 34 56 78 ",
    ])
      expect(internationalPhone("FR", typed), typed).toBe("+33612345678");
  });

  test("countries whose numbers start with a trunk 0: it is dropped, and the dialling code typed without + is read", () => {
    expect(internationalPhone("BE", "0470 12 34 56")).toBe("+32470123456");
    expect(internationalPhone("BE", "32 470 12 34 56")).toBe("+32470123456");
    expect(internationalPhone("BE", "02 123 45 67")).toBe("+3221234567");
    expect(internationalPhone("BE", "3221234567")).toBe("+3221234567");
    expect(internationalPhone("CH", "079 123 45 67")).toBe("+41791234567");
    expect(internationalPhone("CH", "41791234567")).toBe("+41791234567");
    expect(internationalPhone("DE", "0151 23456789")).toBe("+4915123456789");
    expect(internationalPhone("DE", "4915123456789")).toBe("+4915123456789");
    expect(internationalPhone("NL", "06 12345678")).toBe("+31612345678");
    expect(internationalPhone("NL", "31612345678")).toBe("+31612345678");
    expect(internationalPhone("GB", "07700 900123")).toBe("+447700900123");
    expect(internationalPhone("GB", "447700900123")).toBe("+447700900123");
    expect(internationalPhone("GB", "+44 (0)7700 900123")).toBe("+447700900123");
  });

  test("countries without a trunk prefix keep every digit; Italy's landlines keep their 0", () => {
    expect(internationalPhone("ES", "612 34 56 78")).toBe("+34612345678");
    expect(internationalPhone("ES", "34 612 34 56 78")).toBe("+34612345678");
    expect(internationalPhone("PT", "912 345 678")).toBe("+351912345678");
    expect(internationalPhone("PT", "351912345678")).toBe("+351912345678");
    expect(internationalPhone("LU", "621 123 456")).toBe("+352621123456");
    expect(internationalPhone("LU", "352 621 123 456")).toBe("+352621123456");
    expect(internationalPhone("MC", "6 12 34 56 78")).toBe("+377612345678");
    expect(internationalPhone("MC", "377 6 12 34 56 78")).toBe("+377612345678");
    expect(internationalPhone("IT", "333 123 4567")).toBe("+393331234567");
    expect(internationalPhone("IT", "39 333 123 4567")).toBe("+393331234567");
    expect(internationalPhone("IT", "02 1234 5678")).toBe("+390212345678");
    // An Italian mobile may itself begin with 39: ten digits are a national number, not a dialling code.
    expect(internationalPhone("IT", "393 123 4567")).toBe("+393931234567");
  });

  test("a number typed with another country's code keeps it, whatever country is chosen", () => {
    expect(internationalPhone("FR", "+41 79 123 45 67")).toBe("+41791234567");
    expect(internationalPhone("FR", "0041791234567")).toBe("+41791234567");
    expect(internationalPhone("FR", "+32 (0)470 12 34 56")).toBe("+32470123456");
    expect(internationalPhone("BE", "+33 6 12 34 56 78")).toBe("+33612345678");
  });

  test("an unknown country reads as France, the default (spec 001 §2.3)", () => {
    expect(internationalPhone("ZZ", "06 12 34 56 78")).toBe("+33612345678");
    expect(internationalPhone("ZZ", "33612345678")).toBe("+33612345678");
  });

  test("every country of the list turns its own number, typed with or without its code, into one form", () => {
    for (const country of PHONE_COUNTRIES) {
      const national = "9".repeat(country.digits[1]);
      const expected = `${country.dial}${national}`;
      expect(internationalPhone(country.code, `${country.dial}${national}`), country.code).toBe(expected);
      expect(internationalPhone(country.code, `00${country.dial.slice(1)}${national}`), country.code).toBe(expected);
      expect(internationalPhone(country.code, `${country.dial.slice(1)}${national}`), country.code).toBe(expected);
      expect(internationalPhone(country.code, `${country.trunk ? "0" : ""}${national}`), country.code).toBe(expected);
    }
  });
});
