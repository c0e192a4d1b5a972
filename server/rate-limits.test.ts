import { expect, test } from "vitest";
import { SENSITIVE_PATH } from "./rate-limits";

test.each([
  ["/login", true],
  ["/login/code", true],
  ["/cards/card_1/reveal", true],
  ["/cards/card_1/unlock-pin", true],
  ["/lost-password", true],
  ["/activate/abc", true],
  ["/reset-password/abc", true],
  ["/onboarding/card", true],
  ["/sandbox-processor/fields/abc", true],
  ["/user-confirmation", true],
  ["/force-change-password", true],
  ["/secure-account/pending/phone", true],
  ["/settings/profile/confirm/email", true],
  ["/settings/security", true],
  ["/settings/notifications", false],
  ["/cards/card_1/freeze", false],
  ["/cards/card_1", false],
  ["/loginx", false],
])("%s is a sensitive path: %s", (path, sensitive) => {
  expect(SENSITIVE_PATH.test(path)).toBe(sensitive);
});
