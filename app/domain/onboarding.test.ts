import { expect, test } from "vitest";
import { CARD_POLL_LIMIT, parseAttempt, waitOutcome } from "./onboarding";

test("the card found on any look ends the wait, even on the last one", () => {
  for (let attempt = 0; attempt <= CARD_POLL_LIMIT + 1; attempt++) {
    expect(waitOutcome({ hasCard: true, cardInTheMaking: false, attempt })).toBe("ready");
  }
});

test("three looks without a card keep waiting; the fourth gives up (more than 3 polls)", () => {
  expect([0, 1, 2, 3].map((attempt) => waitOutcome({ hasCard: false, cardInTheMaking: true, attempt }))).toEqual([
    "waiting",
    "waiting",
    "waiting",
    "waiting",
  ]);
  expect(waitOutcome({ hasCard: false, cardInTheMaking: true, attempt: 4 })).toBe("failed");
  expect(waitOutcome({ hasCard: false, cardInTheMaking: false, attempt: 4 })).toBe("failed");
});

test("waiting for nothing sends the user back to the card step", () => {
  expect(waitOutcome({ hasCard: false, cardInTheMaking: false, attempt: 1 })).toBe("nothingAsked");
});

test("the attempt count read from the URL is a small whole number", () => {
  expect(parseAttempt(null)).toBe(0);
  expect(parseAttempt("2")).toBe(2);
  expect(parseAttempt("-1")).toBe(0);
  expect(parseAttempt("1e3")).toBe(0);
  expect(parseAttempt("999")).toBe(0);
});
