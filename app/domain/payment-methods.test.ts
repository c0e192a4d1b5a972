import { expect, test } from "vitest";
import { validateSplit } from "./payment-methods";

const wallets = [
  { id: "meal", selectable: 1000 },
  { id: "culture", selectable: 1250 },
];

test("a split that adds up to the amount, within each wallet, is accepted; blanks count as nothing", () => {
  expect(validateSplit(1250, wallets, { meal: "10", culture: "2,50" })).toEqual({
    kind: "split",
    parts: [
      { walletId: "meal", amount: 1000 },
      { walletId: "culture", amount: 250 },
    ],
  });
  expect(validateSplit(1250, wallets, { meal: "", culture: "12,50" })).toEqual({
    kind: "split",
    parts: [{ walletId: "culture", amount: 1250 }],
  });
});

test("a wrong total, a negative part, too much from one wallet or nothing at all is refused", () => {
  expect(validateSplit(1250, wallets, { meal: "10", culture: "2" })).toEqual({
    kind: "invalid",
    errors: { form: "total" },
    total: 1200,
  });
  expect(validateSplit(1250, wallets, { meal: "15", culture: "-2,50" })).toMatchObject({
    kind: "invalid",
    errors: { meal: "tooMuch", culture: "negative" },
  });
  expect(validateSplit(1250, wallets, { meal: "dix" })).toMatchObject({
    kind: "invalid",
    errors: { meal: "amountFormat" },
  });
  expect(validateSplit(1250, wallets, {})).toEqual({ kind: "invalid", errors: { form: "empty" }, total: 0 });
  // A wallet that is not offered cannot be used, whatever is posted for it.
  expect(validateSplit(1250, wallets, { meal: "10", culture: "2,50", someoneElses: "12,50" })).toMatchObject({
    kind: "split",
  });
});
