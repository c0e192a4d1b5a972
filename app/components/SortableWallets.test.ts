import { describe, expect, it } from "vitest";
import { dragAnimationMs } from "./SortableWallets";

const withReducedMotion = (reduce: boolean) => ({
  matchMedia: (query: string) =>
    ({ matches: reduce && query === "(prefers-reduced-motion: reduce)" }) as MediaQueryList,
});

describe("the drag animation of the debit order (issue 13 finding 11)", () => {
  it("animates moved rows by default", () => {
    expect(dragAnimationMs(withReducedMotion(false))).toBe(150);
  });
  it("does not animate when reduced motion is asked for", () => {
    expect(dragAnimationMs(withReducedMotion(true))).toBe(0);
  });
});
