import { expect, test } from "vitest";
import { safeRedirectPath } from "./session";

test.each([
  ["/cards/abc", "/cards/abc"],
  ["/cards?tab=declined#x", "/cards?tab=declined#x"],
  ["https://evil.example/cards", "/cards"],
  ["//evil.example", "/cards"],
  ["/\\evil.example", "/cards"],
  ["/%5Cevil", "/%5Cevil"],
  ["javascript:alert(1)", "/cards"],
  ["/\tevil", "/cards"],
  ["cards", "/cards"],
  [null, "/cards"],
])("redirectTo %s → %s", (input, expected) => {
  expect(safeRedirectPath(input)).toBe(expected);
});
