import { describe, expect, test } from "vitest";
import resources from "~/i18n/catalogues";
import { translatorFor } from "~/i18n";
import { smsEncoding, smsNumberKind, smsSegments, smsText } from "./sms";

/** Which numbers can receive the codes by SMS, and texts that leave as one SMS (decision 0062). */
describe("smsNumberKind", () => {
  test("French mobiles (06, 07) are mobiles; landlines (01 to 05) and boxes (09) are not", () => {
    expect(smsNumberKind("+33612345678")).toBe("mobile");
    expect(smsNumberKind("+33712345678")).toBe("mobile");
    for (const prefix of ["1", "2", "3", "4", "5", "9", "8"])
      expect(smsNumberKind(`+33${prefix}12345678`), prefix).toBe("notMobile");
    // One digit too many or too few is no French number at all.
    expect(smsNumberKind("+336123456789")).toBe("notMobile");
    expect(smsNumberKind("+3361234567")).toBe("notMobile");
  });

  test("the mobiles of the other countries offered, and their landlines", () => {
    const mobiles = [
      "+32470123456",
      "+352621123456",
      "+41791234567",
      "+37761234567",
      "+4915112345678",
      "+491701234567",
      "+34612345678",
      "+393123456789",
      "+351912345678",
      "+31612345678",
      "+447912345678",
    ];
    for (const number of mobiles) expect(smsNumberKind(number), number).toBe("mobile");
    const landlines = [
      "+3221234567",
      "+35222123456",
      "+41221234567",
      "+37793123456",
      "+49301234567",
      "+34912345678",
      "+390612345678",
      "+351212345678",
      "+31201234567",
      "+442071234567",
    ];
    for (const number of landlines) expect(smsNumberKind(number), number).toBe("notMobile");
  });

  test("a number of a country outside the list, and anything that is not E.164", () => {
    expect(smsNumberKind("+12025550123")).toBe("otherCountry");
    expect(smsNumberKind("+81312345678")).toBe("otherCountry");
    for (const bad of ["0612345678", "33612345678", "+33 6 12 34 56 78", "+0612345678", "+336", "", "+33612345678x"])
      expect(smsNumberKind(bad), bad).toBe("invalid");
  });
});

describe("segments", () => {
  test("160 GSM-7 characters are one SMS, 161 are two; extension characters count twice", () => {
    expect(smsSegments("a".repeat(160))).toBe(1);
    expect(smsSegments("a".repeat(161))).toBe(2);
    expect(smsSegments("é".repeat(160))).toBe(1);
    expect(smsSegments(`${"a".repeat(159)}€`)).toBe(2);
    expect(smsSegments("a".repeat(306))).toBe(2);
    expect(smsSegments("a".repeat(307))).toBe(3);
  });

  test("a character outside GSM-7 makes it UCS-2: 70 characters a segment", () => {
    expect(smsEncoding("n’êtes")).toBe("ucs2");
    expect(smsSegments(`ê${"a".repeat(69)}`)).toBe(1);
    expect(smsSegments(`ê${"a".repeat(70)}`)).toBe(2);
    expect(smsSegments(`ê${"a".repeat(134)}`)).toBe(3);
  });

  test("the catalogue's typography leaves in its plain form; paragraphs become one line", () => {
    expect(smsText("Votre code\u202F: 123456.\n\nSi vous n’avez «\u00A0rien\u00A0» demandé…")).toBe(
      'Votre code : 123456. Si vous n\'avez " rien " demandé...',
    );
    expect(smsEncoding(smsText("l’accès – c’est « là »"))).toBe("gsm7");
  });

  /** Every text a code may be sent in by SMS, in every language of the catalogue, with its longest values. */
  const SMS_TEXTS = [
    ["auth.code.messageText", { code: "123456", time: "23:59" }],
    ["cards.reveal.messageText", { code: "123456" }],
    ["passkeys.settings.new.messageText", { code: "123456" }],
    ["settings.profile.payout.codeText", { code: "123456", lastFour: "0189" }],
    ["settings.pendingChange.smsText", { code: "123456" }],
  ] as const;

  test.each(Object.keys(resources) as (keyof typeof resources)[])(
    "every code text in %s leaves as one GSM-7 SMS",
    (lng) => {
      const t = translatorFor(resources[lng].translation);
      for (const [key, values] of SMS_TEXTS) {
        const text = smsText(t(key, values));
        expect(text, key).not.toBe(key);
        expect(text, key).toContain("123456");
        expect({ key, encoding: smsEncoding(text), segments: smsSegments(text) }).toEqual({
          key,
          encoding: "gsm7",
          segments: 1,
        });
      }
    },
  );
});
