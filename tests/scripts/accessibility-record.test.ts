import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { accessibilityRecord, conformityOf, type AccessibilityRecord } from "../../app/content/accessibility-record";
import { START, withRecord } from "../../scripts/accessibility-record-markdown";

/**
 * The record and docs/accessibility.md cannot drift (decision 0068): the document's generated part is exactly
 * what the record writes. When this fails, run `npm run accessibility-record` and commit both.
 */
const document = readFileSync(new URL("../../docs/accessibility.md", import.meta.url), "utf8");

test("docs/accessibility.md's hand-review table is what the record generates", () => {
  expect(document).toContain(START);
  expect(withRecord(document, accessibilityRecord)).toBe(document);
});

test("a changed verdict makes the document differ, and the conformity state follow", () => {
  const flipped = accessibilityRecord.criteria.findIndex((c) => c.verdict === "C");
  const changed: AccessibilityRecord = {
    ...accessibilityRecord,
    criteria: accessibilityRecord.criteria.map((c, i) =>
      i === flipped ? { ...c, verdict: "NC", publicText: { fr: "x", en: "x", nl: "x" } } : c,
    ),
  };
  expect(withRecord(document, changed)).not.toBe(document);
  expect(conformityOf(changed).notConform).toBe(conformityOf().notConform + 1);
  expect(conformityOf(changed).level).not.toBe("total");
});

test("every criterion is reviewed once, with evidence, and says in public what does not conform", () => {
  const ids = accessibilityRecord.criteria.map((c) => `${c.standard} ${c.id}`);
  expect(new Set(ids).size).toBe(ids.length);
  for (const c of accessibilityRecord.criteria) {
    expect(c.evidence.length, c.id).toBeGreaterThan(40);
    if (c.verdict === "NC") for (const text of Object.values(c.publicText)) expect(text.trim(), c.id).not.toBe("");
  }
});

test("the conformity state follows RGAA's formula: conform among applicable, 100 % total, 50 % partial", () => {
  const withVerdicts = (...verdicts: ("C" | "NC" | "NA")[]): AccessibilityRecord => ({
    ...accessibilityRecord,
    criteria: verdicts.map((verdict, i) => {
      const base = { id: `${i + 1}.1`, standard: "RGAA 4.1" as const, theme: "t", title: "t", evidence: "e" };
      return verdict === "NC" ? { ...base, verdict, publicText: { fr: "x", en: "x", nl: "x" } } : { ...base, verdict };
    }),
  });
  expect(conformityOf(withVerdicts("C", "C", "NA"))).toMatchObject({ level: "total", rate: 100, notApplicable: 1 });
  expect(conformityOf(withVerdicts("C", "NC", "NA"))).toMatchObject({ level: "partial", rate: 50 });
  expect(conformityOf(withVerdicts("C", "C", "NC"))).toMatchObject({ level: "partial", rate: 66.6 });
  expect(conformityOf(withVerdicts("C", "NC", "NC"))).toMatchObject({ level: "none", rate: 33.3 });
});
