import { expect, test } from "vitest";
import { firstEnabledOption } from "./error-targets";

const licences = (physical: number, virtual: number) => ({ physical, virtual });
const target = (left: Record<"physical" | "virtual", number>) =>
  firstEnabledOption(
    ["physical", "virtual"] as const,
    (type) => left[type] > 0,
    (type) => `card-type-${type}`,
    "card-type",
  );

test("a summary link goes to the first type still available, never to a disabled one", () => {
  expect(target(licences(1, 1))).toBe("card-type-physical");
  // Finding 8: no physical licence left, the physical radio is disabled.
  expect(target(licences(0, 1))).toBe("card-type-virtual");
  expect(target(licences(2, 0))).toBe("card-type-physical");
});

test("with no option open, the link goes to the group", () => {
  expect(target(licences(0, 0))).toBe("card-type");
});
