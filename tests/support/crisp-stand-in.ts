import type { Page } from "@playwright/test";

/** One thing the portal's page did with Crisp, as the stand-in saw it. */
export type CrispEvent =
  /** The widget script ran: the globals crisp-sdk-web set before injecting it. */
  | { kind: "loaded"; websiteId: string | null; tokenId: string | null; runtimeConfig: unknown }
  /** A command pushed to `$crisp` (queued before the script ran, or after), with the token id at that moment. */
  | { kind: "push"; command: unknown[]; tokenId: string | null };

/**
 * A stand-in for Crisp's widget script (`https://client.crisp.chat/l.js`, which crisp-sdk-web injects; it
 * cannot be reached here), served through Playwright's request routing. Like the real one it takes over
 * `window.$crisp`: it replays the commands queued before it ran, then takes each later one, and answers
 * `$crisp.is(...)` so that the SDK sees it injected. Everything it sees is reported to the test process
 * (a binding, so that it survives the navigations of signing out) and returned in `events`.
 */
export async function serveCrispStandIn(page: Page): Promise<{ events: CrispEvent[]; scripts: string[] }> {
  const events: CrispEvent[] = [];
  const scripts: string[] = [];
  await page.exposeFunction("__crispStandInReport", (event: CrispEvent) => void events.push(event));
  await page.route("https://client.crisp.chat/**", async (route) => {
    scripts.push(route.request().url());
    if (new URL(route.request().url()).pathname !== "/l.js") return route.abort("connectionrefused");
    return route.fulfill({ status: 200, contentType: "application/javascript", body: STAND_IN });
  });
  return { events, scripts };
}

const STAND_IN = `(() => {
  const report = (event) => window.__crispStandInReport(JSON.parse(JSON.stringify(event, (key, value) =>
    typeof value === "function" ? "[function]" : value)));
  const token = () => (typeof window.CRISP_TOKEN_ID === "string" ? window.CRISP_TOKEN_ID : null);
  report({
    kind: "loaded",
    websiteId: window.CRISP_WEBSITE_ID || null,
    tokenId: token(),
    runtimeConfig: window.CRISP_RUNTIME_CONFIG || null,
  });
  const queued = Array.isArray(window.$crisp) ? window.$crisp.slice() : [];
  const box = document.createElement("div");
  box.setAttribute("data-crisp-stand-in", "");
  box.hidden = true;
  document.body.appendChild(box);
  window.$crisp = {
    is: (what) => (what === "chat:opened" ? !box.hidden : false),
    get: () => null,
    push(command) {
      report({ kind: "push", command, tokenId: token() });
      if (command[0] === "do" && command[1] === "chat:open") box.hidden = false;
      if (command[0] === "do" && command[1] === "session:reset") box.hidden = true;
    },
  };
  queued.forEach((command) => window.$crisp.push(command));
})();`;
