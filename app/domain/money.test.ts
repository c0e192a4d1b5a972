import { expect, test } from "vitest";
import { centsToField, parseEuros } from "./money";

test("amounts in a field are shown with a decimal comma and two decimals", () => {
  expect(centsToField(910)).toBe("9,10");
  expect(centsToField(5)).toBe("0,05");
  expect(centsToField(12000)).toBe("120,00");
});

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
