import { conformityOf, type AccessibilityRecord } from "../app/content/accessibility-record";

/** The markers around the part of docs/accessibility.md the record writes (decision 0068). */
export const START =
  "<!-- accessibility-record:start (written by `npm run accessibility-record`: edit app/content/accessibility-record.ts) -->";
export const END = "<!-- accessibility-record:end -->";

/** A table cell: pipes would end the cell and line breaks the row. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

/** The generated part: the audit's figures, its sample and environment, then one row per criterion. */
export function recordMarkdown(record: AccessibilityRecord): string {
  const state = conformityOf(record);
  const lines = [
    `## Hand review (${state.rgaaReviewed} RGAA criteria + ${state.wcag22Reviewed} WCAG 2.2)`,
    "",
    `Finished on ${record.auditDate} by ${record.auditor.en}. Verdicts: **${state.conform} C, ${state.notConform} NC, ` +
      `${state.notApplicable} NA: ${state.rate} % of the applicable criteria conform** (statement: « ${
        { total: "totalement", partial: "partiellement", none: "non" }[state.level]
      } conforme »).`,
    "",
    "Sample (one page per template, every wizard step):",
    "",
    ...record.sample.map((p) => `- ${p.name.en}: \`${p.url}\` (${p.template})`),
    "",
    `Environment: ${record.environment.map((e) => e.en).join("; ")}. Tools: ${record.tools.map((t) => t.en).join("; ")}.`,
    "",
    "| criterion | standard | theme | verdict | evidence |",
    "|---|---|---|---|---|",
    ...record.criteria.map(
      (c) => `| ${c.id} ${cell(c.title)} | ${c.standard} | ${c.theme} | ${c.verdict} | ${cell(c.evidence)} |`,
    ),
  ];
  return lines.join("\n");
}

/** The document with its generated part replaced; throws when the markers are missing or out of order. */
export function withRecord(document: string, record: AccessibilityRecord): string {
  const start = document.indexOf(START);
  const end = document.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/accessibility.md: the markers ${START} … ${END} are missing`);
  return `${document.slice(0, start + START.length)}\n${recordMarkdown(record)}\n${document.slice(end)}`;
}
