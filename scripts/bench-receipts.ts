/**
 * `npm run bench:receipts`: the time to read a receipt on this server (decision 0025), with the reader
 * the portal uses (its own child process, decision 0046: one tesseract.js worker, reused; unpdf for
 * PDFs) and the parser of the details step.
 * Reads the demo's two receipts (tests/fixtures/receipts) N times each (BENCH_RUNS, default 10) and
 * prints, per receipt: the first read (the worker's start included for the first image), then the
 * median and 95th percentile of the others, and what was read; then the memory of this process and of
 * the reader's. Nothing leaves the machine.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseReceiptText } from "../app/domain/receipt-text";
import { IsolatedReceiptReader, residentBytes } from "../app/.server/providers/receipt-reading/isolated";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RUNS = Math.max(2, Number(process.env.BENCH_RUNS ?? 10));
const TODAY = "2026-11-23";
const RECEIPTS = [
  { file: "boulangerie-2026-11-14.jpg", type: "image/jpeg" },
  { file: "cycles-du-rhone-2026-11-02.pdf", type: "application/pdf" },
];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (n: number) => `${n.toFixed(0)} ms`;

async function main() {
  const reader = new IsolatedReceiptReader();
  const rssBefore = process.memoryUsage().rss;
  console.log(`Reading each receipt ${RUNS} times (${process.version}, in the reader's own process, reused)\n`);
  try {
    for (const receipt of RECEIPTS) {
      const bytes = new Uint8Array(readFileSync(path.join(root, "tests/fixtures/receipts", receipt.file)));
      const times: number[] = [];
      let facts = null;
      for (let i = 0; i < RUNS; i++) {
        const start = performance.now();
        const reading = await reader.read(bytes, receipt.type);
        if (reading.kind !== "read") throw new Error(`${receipt.file}: unreadable (${reading.reason})`);
        facts = parseReceiptText(reading.text, TODAY);
        times.push(performance.now() - start);
      }
      const rest = times.slice(1).sort((a, b) => a - b);
      console.log(
        `${receipt.file.padEnd(32)} first ${ms(times[0]!).padStart(8)}   median ${ms(percentile(rest, 50)).padStart(7)}` +
          `   p95 ${ms(percentile(rest, 95)).padStart(7)}   → ${JSON.stringify(facts)}`,
      );
    }
    const mb = (n: number) => `${Math.round(n / 1e6)} MB`;
    console.log(
      `\nThis process: ${mb(rssBefore)} before, ${mb(process.memoryUsage().rss)} after;` +
        ` the reader's process: ${mb(residentBytes(reader.pid) ?? 0)}`,
    );
  } finally {
    await reader.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
