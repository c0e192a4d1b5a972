import { defineConfig } from "@playwright/test";
import webpush from "web-push";
import { DEFAULT_PUSH_SERVICE_HOSTS } from "./app/domain/push";
import { E2E_SESSION_SECRET, e2eDatabaseFile } from "./tests/e2e/servers";

// One server and one fresh demo database per project, so the two runs never see each other's changes.
const PORT = Number(process.env.E2E_PORT ?? 3100);
// The JS-off server runs as two workers (WEB_CONCURRENCY), so every journey also crosses processes.
const servers = [
  { project: "js-on", javaScriptEnabled: true, port: PORT, workers: 1 },
  { project: "js-off", javaScriptEnabled: false, port: PORT + 1, workers: 2 },
];

// Web Push offered in the browsers (issue 33): fresh VAPID keys for these servers, and the tests' local push
// service (127.0.0.1) allowed besides the browsers' own. Made at each load of this file: only the servers use them.
const vapid = webpush.generateVAPIDKeys();

/**
 * Every journey runs twice: JavaScript enabled and disabled. The browser is Debian's Chromium
 * (never a downloaded one); the server is the production build on a fresh SQLite database.
 */
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  // Long journeys run axe on many states (with JS off, in a twin page each time): a loaded 2-core machine needs the margin.
  timeout: 60_000,
  expect: { timeout: 5_000 },
  reporter: [["list"]],
  use: {
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    trace: "off",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: servers.map((s) => ({
    name: s.project,
    use: { javaScriptEnabled: s.javaScriptEnabled, baseURL: `http://localhost:${s.port}` },
  })),
  webServer: servers.map((s) => ({
    command: `rm -f ${e2eDatabaseFile(s.project)}* && npx tsx server.ts`,
    url: `http://localhost:${s.port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      APP_MODE: "sandbox",
      PORT: String(s.port),
      WEB_CONCURRENCY: String(s.workers),
      HOST: "127.0.0.1",
      DATABASE_URL: `file:${e2eDatabaseFile(s.project)}`,
      // Known to the fixtures (tests/e2e/fixtures.ts), which plant signed-in sessions for their own accounts.
      SESSION_SECRET: E2E_SESSION_SECRET,
      PUBLIC_URL: `http://localhost:${s.port}`,
      LOG_LEVEL: "warn",
      // Both projects sign in many times from 127.0.0.1; the limit itself is tested in server tests.
      RATE_LIMIT_SENSITIVE: "1000",
      // The configurable status banner shows on every page the journeys reach (and axe checks its contrast).
      STATUS_BANNER_TEXT: "Maintenance prévue dimanche de 2 h à 4 h : le portail sera indisponible.",
      STATUS_BANNER_COLOR: "#1d3f8f",
      // Product analytics in the database (the sandbox adapter): the feedback entry and survey are reachable.
      ANALYTICS_KEY: "sandbox",
      // The tag manager's dataLayer without loading anything from outside (decision 0031; tag-manager.spec.ts).
      TAG_MANAGER_ID: "sandbox",
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: "mailto:push-e2e@example.com",
      PUSH_SERVICE_HOSTS: [...DEFAULT_PUSH_SERVICE_HOSTS, "127.0.0.1"].join(","),
    },
  })),
});
