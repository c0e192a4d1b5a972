/**
 * The page measures of `npm run bench`: Lighthouse's Node API on Debian's Chromium (headless), with
 * Lighthouse's default settings — mobile emulation, simulated slow 4G (150 ms RTT, 1.6 Mbit/s) and a 4×
 * CPU slowdown — and the performance category only. Each page is measured `runs` times, the runs of the
 * pages interleaved so that a noisy moment of the machine does not fall on one page only; the report
 * gives the median of each figure.
 */
import lighthouse, { NetworkRecords } from "lighthouse";
import * as chromeLauncher from "chrome-launcher";

export interface LighthousePage {
  label: string;
  /** Absolute URL. */
  url: string;
  /** Sent with every request of the page (the session cookie, Save-Data). */
  headers: Record<string, string>;
}

export interface LighthouseRun {
  /** 0–100, null when Lighthouse could not score the page. */
  score: number | null;
  lcpMs: number | null;
  /** Bytes of JavaScript bodies as transferred (content-encoded), response headers not counted. */
  jsBytes: number;
  jsFiles: number;
  /** The scripts' URLs, in the order the page loaded them. */
  scriptUrls: string[];
  /** Content-Encoding of the scripts as the server sent them to Chromium. */
  jsEncodings: string[];
  /** What Lighthouse calls the largest contentful paint's element (its selector or snippet). */
  lcpElement: string | null;
  /** Lighthouse's runtime error or warnings, if any. */
  problem: string | null;
  /** Runs Lighthouse threw away (a runtime error such as NO_NAVSTART, which asks to run again). */
  retries: number;
}

/** Lighthouse's runtime errors (a trace not recorded…) say "run Lighthouse again": so many times, no more. */
const RETRIES = 2;

export class LighthouseSetupError extends Error {}

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

interface LcpElementDetails {
  items?: { items?: { node?: { selector?: string; snippet?: string } }[] }[];
}

/** Runs every page `runs` times in one headless Chromium; the pages' runs are interleaved. */
export async function measurePages(pages: LighthousePage[], runs: number): Promise<Map<string, LighthouseRun[]>> {
  let chrome: chromeLauncher.LaunchedChrome;
  try {
    chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM,
      chromeFlags: [
        "--headless=new",
        "--disable-gpu",
        // Chromium's sandbox refuses to start as root (containers, CI).
        ...(process.getuid?.() === 0 ? ["--no-sandbox"] : []),
      ],
      logLevel: "silent",
    });
  } catch (err) {
    throw new LighthouseSetupError(
      `Chromium did not start (${CHROMIUM}; CHROMIUM_PATH sets another): ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const results = new Map<string, LighthouseRun[]>(pages.map((p) => [p.label, []]));
  try {
    for (let run = 0; run < runs; run++) {
      for (const page of pages) {
        let result = await measureOnce(chrome.port, page);
        for (let retry = 1; retry <= RETRIES && result.score === null; retry++)
          result = { ...(await measureOnce(chrome.port, page)), retries: retry };
        results.get(page.label)!.push(result);
      }
    }
  } finally {
    chrome.kill();
  }
  return results;
}

async function measureOnce(port: number, page: LighthousePage): Promise<LighthouseRun> {
  const result = await lighthouse(page.url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance"],
    // Network.setExtraHTTPHeaders: on the document and every subresource. Lighthouse clears the origin's
    // storage (cookies included) before it loads the page, so a cookie set in the browser would be lost.
    extraHeaders: page.headers,
  });
  if (!result) throw new LighthouseSetupError(`Lighthouse returned nothing for ${page.url}`);
  const { lhr, artifacts } = result;
  // A session the server did not accept would be measured as the sign-in page it redirects to.
  const landed = new URL(lhr.finalDisplayedUrl);
  const asked = new URL(page.url);
  if (landed.pathname + landed.search !== asked.pathname + asked.search) {
    throw new LighthouseSetupError(`Lighthouse asked for ${page.url} and was led to ${lhr.finalDisplayedUrl}`);
  }
  const records = await NetworkRecords.request(artifacts.DevtoolsLog, { computedCache: new Map() });
  const scripts = records.filter((r) => r.resourceType === "Script" && !r.failed);
  const encodings = new Set(
    scripts.map((r) => r.responseHeaders.find((h) => h.name.toLowerCase() === "content-encoding")?.value ?? "identity"),
  );
  const lcpDetails = lhr.audits["largest-contentful-paint-element"]?.details as LcpElementDetails | undefined;
  const lcpNode = lcpDetails?.items?.[0]?.items?.[0]?.node;
  const score = lhr.categories.performance?.score;
  const lcp = lhr.audits["largest-contentful-paint"]?.numericValue;
  const problem = lhr.runtimeError
    ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`
    : lhr.runWarnings.length
      ? lhr.runWarnings.join(" / ")
      : null;
  return {
    score: typeof score === "number" ? Math.round(score * 100) : null,
    lcpMs: typeof lcp === "number" ? lcp : null,
    jsBytes: scripts.reduce((total, r) => total + Math.max(0, r.transferSize - r.responseHeadersTransferSize), 0),
    jsFiles: scripts.length,
    scriptUrls: scripts.map((r) => r.url),
    jsEncodings: [...encodings].sort(),
    lcpElement: lcpNode?.selector ?? lcpNode?.snippet ?? null,
    problem,
    retries: 0,
  };
}

/** The median of the numbers (the mean of the middle two when their count is even); NaN when none. */
export function median(values: (number | null)[]): number {
  const sorted = values.filter((v): v is number => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
