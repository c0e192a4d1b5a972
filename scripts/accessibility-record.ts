/**
 * Writes docs/accessibility.md's hand-review table from the accessibility record (decision 0068):
 * `npm run accessibility-record` after any change to app/content/accessibility-record.ts. The unit test
 * tests/scripts/accessibility-record.test.ts fails while the two differ.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { accessibilityRecord } from "../app/content/accessibility-record";
import { withRecord } from "./accessibility-record-markdown";

const path = new URL("../docs/accessibility.md", import.meta.url);
const before = readFileSync(path, "utf8");
const after = withRecord(before, accessibilityRecord);
writeFileSync(path, after);
console.log(
  after === before
    ? "docs/accessibility.md already matches the record."
    : "docs/accessibility.md rewritten from the record.",
);
