import { expect, test } from "vitest";
import { deviceNameFromUserAgent } from "./device-name";

const UA = {
  chromeAndroid:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  safariIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  chromeIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
  edgeWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.51",
  firefoxLinux: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  safariMac:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  samsungAndroid:
    "Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
  operaWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0",
  firefoxIpad:
    "Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15",
  chromebook:
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  headlessLinux:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
};

test("the browser and the system are named as people know them", () => {
  expect(deviceNameFromUserAgent(UA.chromeAndroid)).toBe("Chrome sur Android");
  expect(deviceNameFromUserAgent(UA.safariIphone)).toBe("Safari sur iPhone");
  expect(deviceNameFromUserAgent(UA.edgeWindows)).toBe("Edge sur Windows");
  expect(deviceNameFromUserAgent(UA.firefoxLinux)).toBe("Firefox sur Linux");
  expect(deviceNameFromUserAgent(UA.safariMac)).toBe("Safari sur Mac");
  expect(deviceNameFromUserAgent(UA.chromebook)).toBe("Chrome sur ChromeOS");
});

test("browsers that also say Chrome or Safari are told apart, on iOS too", () => {
  expect(deviceNameFromUserAgent(UA.chromeIphone)).toBe("Chrome sur iPhone");
  expect(deviceNameFromUserAgent(UA.samsungAndroid)).toBe("Samsung Internet sur Android");
  expect(deviceNameFromUserAgent(UA.operaWindows)).toBe("Opera sur Windows");
  expect(deviceNameFromUserAgent(UA.firefoxIpad)).toBe("Firefox sur iPad");
});

test("an unknown half leaves the known one alone; nothing known is « Cet appareil »", () => {
  // A headless Chrome is no browser a person would recognise: the system alone.
  expect(deviceNameFromUserAgent(UA.headlessLinux)).toBe("Linux");
  expect(deviceNameFromUserAgent("SomeBot/1.0 Chrome/120.0")).toBe("Chrome");
  expect(deviceNameFromUserAgent("curl/8.5.0")).toBe("Cet appareil");
  expect(deviceNameFromUserAgent("")).toBe("Cet appareil");
  expect(deviceNameFromUserAgent(null)).toBe("Cet appareil");
  expect(deviceNameFromUserAgent(undefined)).toBe("Cet appareil");
});

test("the words come from the page's language when given", () => {
  const english = { on: (browser: string, system: string) => `${browser} on ${system}`, fallback: "This device" };
  expect(deviceNameFromUserAgent(UA.chromeAndroid, english)).toBe("Chrome on Android");
  expect(deviceNameFromUserAgent("curl/8.5.0", english)).toBe("This device");
});
