import { expect, test } from "vitest";
import { safeRedirectPath } from "./session";

test.each([
  ["/cards/abc", "/cards/abc"],
  ["/cards?tab=declined#x", "/cards?tab=declined#x"],
  ["https://evil.example/cards", "/cards"],
  ["//evil.example", "/cards"],
  ["/\\evil.example", "/cards"],
  ["/%5Cevil", "/cards"],
  ["javascript:alert(1)", "/cards"],
  ["/\tevil", "/cards"],
  ["cards", "/cards"],
  [null, "/cards"],
  // Issue 11, finding 7: dot segments and encoded dots or slashes resolved before the check, not after.
  ["/.//evil.example", "/cards"],
  ["/..//evil.example", "/cards"],
  ["/%2e//evil.example", "/cards"],
  ["/%2E%2E//evil.example/x", "/cards"],
  ["/cards/..//evil.example", "/cards"],
  ["/.%2F%2Fevil.example", "/cards"],
  ["/%2F%2Fevil.example", "/cards"],
  ["/%2e%2e%2f%2fevil.example", "/cards"],
  ["/%2e%5cevil.example", "/cards"],
  ["/cards/%2e%2e/%2e%2e/etc/passwd", "/cards"],
  // Only a page of the signed-in portal: anything else has nothing to come back to.
  ["/settings/./profile", "/settings/profile"],
  ["/cards/card_1/../card_2", "/cards/card_2"],
  ["/cards/card_1/transactions/auth_1/report", "/cards/card_1/transactions/auth_1/report"],
  ["/onboarding/wait?attempt=2", "/onboarding/wait?attempt=2"],
  ["/secure-account/pending/phone", "/secure-account/pending/phone"],
  ["/wallets/wal_%C3%A9", "/wallets/wal_%C3%A9"],
  ["/wallets/wal_é", "/wallets/wal_%C3%A9"],
  ["/etc/passwd", "/cards"],
  ["/login", "/cards"],
  ["/logout", "/cards"],
  ["/dev/outbox", "/cards"],
  ["/cards/card_1/unknown-panel", "/cards"],
])("redirectTo %s → %s", (input, expected) => {
  expect(safeRedirectPath(input)).toBe(expected);
});
