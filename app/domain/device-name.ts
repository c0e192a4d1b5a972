/**
 * The name a new passkey is given before the person changes it (issue 32 item 1: "named after the device"):
 * the browser and the system read from the User-Agent, « Chrome sur Android », « Safari sur iPhone ». Only the
 * best-known names are told apart; anything else falls back to the system or the browser alone, then to
 * « Cet appareil ». Browser-safe: no Node API, the same answer on the server and in the page.
 */

/** How the two parts are said, and what is said when neither is known (the page's language). */
export interface DeviceWords {
  on: (browser: string, system: string) => string;
  fallback: string;
}

export const FRENCH_DEVICE_WORDS: DeviceWords = {
  on: (browser, system) => `${browser} sur ${system}`,
  fallback: "Cet appareil",
};

/**
 * Browsers in the order they must be tested: Edge, Opera and Samsung Internet also say "Chrome" and
 * "Safari", Chrome says "Safari", and on iOS every browser is Safari underneath with its own mark.
 */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\b(?:OPR|OPiOS)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(?:Firefox|FxiOS)\//, "Firefox"],
  [/\b(?:Chrome|CriOS|Chromium)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

/** Systems in the order they must be tested: Android says "Linux", iPhones say "like Mac OS X". */
const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMacintosh\b|\bMac OS X\b/, "Mac"],
  [/\bLinux\b/, "Linux"],
];

const firstMatch = (table: [RegExp, string][], ua: string) => table.find(([pattern]) => pattern.test(ua))?.[1];

export function deviceNameFromUserAgent(
  ua: string | null | undefined,
  words: DeviceWords = FRENCH_DEVICE_WORDS,
): string {
  const text = (ua ?? "").slice(0, 1000);
  const browser = firstMatch(BROWSERS, text);
  const system = firstMatch(SYSTEMS, text);
  if (browser && system) return words.on(browser, system);
  return system ?? browser ?? words.fallback;
}
