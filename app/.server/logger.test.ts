import { expect, test } from "vitest";
import { createLogger } from "./logger";

test("secrets never reach the log line", () => {
  const lines: string[] = [];
  const log = createLogger("info", (l) => lines.push(l));
  log.info("login", { email: "marie@example.com", password: "Demo-Portail-2026!", code: "123456", nested: { pin: "1234", cardNumber: "4242424242424242" } });
  const line = lines.join("\n");
  expect(line).toContain("marie@example.com");
  for (const secret of ["Demo-Portail-2026!", "123456", "1234", "4242424242424242"]) expect(line).not.toContain(secret);
  log.debug("hidden below the level");
  expect(lines).toHaveLength(1);
});
