import { expect, test } from "vitest";
import { createLogger, pathForLog, secretPathMasker } from "./logger";

test("secrets never reach the log line", () => {
  const lines: string[] = [];
  const log = createLogger("info", (l) => lines.push(l));
  log.info("login", {
    email: "marie@example.com",
    password: "Demo-Portail-2026!",
    code: "123456",
    nested: { pin: "1234", cardNumber: "4242424242424242" },
  });
  const line = lines.join("\n");
  expect(line).toContain("marie@example.com");
  for (const secret of ["Demo-Portail-2026!", "123456", "1234", "4242424242424242"]) expect(line).not.toContain(secret);
  log.debug("hidden below the level");
  expect(lines).toHaveLength(1);
});

test("path tokens and keys are logged by their parameter's name", () => {
  const mask = secretPathMasker([
    "login",
    "activate/:token?",
    "reset-password/:token?",
    "sandbox-issuer/reveal/:key",
    "cards/:cardId",
    "cards/:cardId/reveal",
  ]);
  expect(mask("/reset-password/AbC-123_x")).toBe("/reset-password/:token");
  expect(mask("/Reset-Password/AbC-123_x.data")).toBe("/reset-password/:token.data");
  expect(mask("/reset-password")).toBe("/reset-password");
  expect(mask("/activate/tok%2Fen/")).toBe("/activate/:token");
  expect(mask("/sandbox-issuer/reveal/k3y")).toBe("/sandbox-issuer/reveal/:key");
  // Ids that are not secrets stay, so the log still says which card was asked for.
  expect(mask("/cards/card_1/reveal")).toBe("/cards/card_1/reveal");
  expect(mask("/login")).toBe("/login");
  expect(pathForLog("/reset-password/a%2Fb", { token: "a/b" })).toBe("/reset-password/:token");
  expect(pathForLog("/cards/card_1", { cardId: "card_1" })).toBe("/cards/card_1");
});
