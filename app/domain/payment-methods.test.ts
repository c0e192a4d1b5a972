import { expect, test } from "vitest";
import { parseEuros, validateSplit } from "./payment-methods";

test("typed euro amounts become cents; anything else is refused", () => {
  expect(parseEuros("12")).toBe(1200);
  expect(parseEuros("12,5")).toBe(1250);
  expect(parseEuros(" 12.05 ")).toBe(1205);
  expect(parseEuros("")).toBe(0);
  expect(parseEuros("-3")).toBe(-300);
  expect(parseEuros("12,345")).toBeNull();
  expect(parseEuros("douze")).toBeNull();
  expect(parseEuros("1e3")).toBeNull();
});

const wallets = [
  { id: "meal", selectable: 1000 },
  { id: "culture", selectable: 1250 },
];

test("a split that adds up to the amount, within each wallet, is accepted; blanks count as nothing", () => {
  expect(validateSplit(1250, wallets, { meal: "10", culture: "2,50" })).toEqual({
    ok: true,
    parts: [
      { walletId: "meal", amount: 1000 },
      { walletId: "culture", amount: 250 },
    ],
  });
  expect(validateSplit(1250, wallets, { meal: "", culture: "12,50" })).toEqual({
    ok: true,
    parts: [{ walletId: "culture", amount: 1250 }],
  });
});

test("a wrong total, a negative part, too much from one wallet or nothing at all is refused", () => {
  expect(validateSplit(1250, wallets, { meal: "10", culture: "2" })).toEqual({
    ok: false,
    errors: { form: "total" },
    total: 1200,
  });
  expect(validateSplit(1250, wallets, { meal: "15", culture: "-2,50" })).toMatchObject({
    ok: false,
    errors: { meal: "tooMuch", culture: "negative" },
  });
  expect(validateSplit(1250, wallets, { meal: "dix" })).toMatchObject({ ok: false, errors: { meal: "amountFormat" } });
  expect(validateSplit(1250, wallets, {})).toEqual({ ok: false, errors: { form: "empty" }, total: 0 });
  // A wallet that is not offered cannot be used, whatever is posted for it.
  expect(validateSplit(1250, wallets, { meal: "10", culture: "2,50", someoneElses: "12,50" })).toMatchObject({
    ok: true,
  });
});
