/**
 * What the Playwright fixtures share with the e2e servers that playwright.config.ts starts: the
 * session secret (so a fixture can sign a session cookie as the server would) and each project's
 * database file (so a fixture can write its own accounts there; SQLite in WAL mode takes writes from
 * several processes). Test-only values: these servers listen on 127.0.0.1 in sandbox mode.
 */
export const E2E_SESSION_SECRET = "e2e-only-session-secret-not-for-any-real-server";

export function e2eDatabaseFile(project: string): string {
  // Another run on other ports (E2E_PORT) gets databases of its own, so two runs never reset each other's.
  const port = process.env.E2E_PORT;
  return port ? `data/e2e-${project}-${port}.sqlite` : `data/e2e-${project}.sqlite`;
}
