import { expect, test } from "vitest";
import { passwordLockedMessage } from "./guess-messages.server";

const now = new Date("2026-11-23T18:00:00Z");
const after = (ms: number) => new Date(now.getTime() + ms);

test("the wait is said in whole minutes, rounded up, and never less than one", () => {
  expect(passwordLockedMessage(after(1_000), now)).toMatch(/dans 1 minute$/);
  expect(passwordLockedMessage(after(60_000), now)).toMatch(/dans 1 minute$/);
  expect(passwordLockedMessage(after(60_001), now)).toMatch(/dans 2 minutes$/);
  expect(passwordLockedMessage(after(15 * 60_000), now)).toMatch(/dans 15 minutes$/);
  expect(passwordLockedMessage(after(-5_000), now)).toMatch(/dans 1 minute$/);
});
