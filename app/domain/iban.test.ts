import { describe, expect, test } from "vitest";
import { ibanProblem, maskIban, normaliseIban, SEPA_COUNTRIES } from "./iban";

/** ISO 13616 check digits computed here, so a number with a wrong RIB key can still pass the checksum. */
function withCheckDigits(country: string, bban: string): string {
  const digits = `${bban}${country}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return `${country}${String(98 - rest).padStart(2, "0")}${bban}`;
}

describe("normaliseIban", () => {
  test("removes spaces and dashes and upper-cases", () => {
    expect(normaliseIban(" fr76 3000-6000 0112 3456 7890 189 ")).toBe("FR7630006000011234567890189");
  });
});

describe("ibanProblem", () => {
  test("valid SEPA IBANs pass", () => {
    for (const iban of [
      "FR7630006000011234567890189",
      "DE89370400440532013000",
      "NL91ABNA0417164300",
      "GB29NWBK60161331926819",
      "CH9300762011623852957",
    ])
      expect(ibanProblem(iban), iban).toBeNull();
  });

  test("a wrong ISO 13616 checksum", () => {
    expect(ibanProblem("FR7630006000011234567890188")).toBe("ibanChecksum");
    expect(ibanProblem("DE89370400440532013001")).toBe("ibanChecksum");
  });

  test("a wrong length for the country", () => {
    expect(ibanProblem("FR763000600001123456789018")).toBe("ibanLength");
    expect(ibanProblem("FR76300060000112345678901890")).toBe("ibanLength");
  });

  test("a French RIB key that does not match, even with right check digits", () => {
    const wrongKey = withCheckDigits("FR", "3000600001123456789018" + "0");
    expect(wrongKey).toHaveLength(27);
    expect(ibanProblem(wrongKey)).toBe("ibanRibKey");
    // The same account with its right key (89) passes.
    expect(ibanProblem(withCheckDigits("FR", "30006000011234567890189"))).toBeNull();
  });

  test("countries outside SEPA and unknown countries are refused", () => {
    expect(ibanProblem("BR1800360305000010009795493C1")).toBe("ibanNotSepa");
    expect(ibanProblem("TR330006100519786457841326")).toBe("ibanNotSepa");
    expect(ibanProblem("US12345")).toBe("ibanCountry");
    expect(ibanProblem("1234")).toBe("ibanCountry");
    expect(ibanProblem("")).toBe("ibanRequired");
  });

  test("letters where the format wants digits", () => {
    expect(ibanProblem("FR76300060000112345678901AB")).not.toBeNull();
  });

  test("the SEPA list holds the euro area and the EEA, not Brazil or the US", () => {
    for (const c of ["FR", "DE", "ES", "IT", "BE", "NL", "CH", "GB", "NO", "MC"]) expect(SEPA_COUNTRIES).toContain(c);
    for (const c of ["BR", "US", "TR", "MA"]) expect(SEPA_COUNTRIES).not.toContain(c);
  });
});

test("maskIban keeps the last four characters", () => {
  expect(maskIban("FR7630006000011234567890189")).toBe("0189");
});
