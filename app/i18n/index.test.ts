import { expect, test } from "vitest";
import { translatorFor } from "./index";

const t = translatorFor({ a: { b: "Bonjour {{name}}, {{count}} messages", c: "Sans variable" } });

test("nested keys, placeholders, defaults", () => {
  expect(t("a.b", { name: "Marie", count: 3 })).toBe("Bonjour Marie, 3 messages");
  expect(t("a.c")).toBe("Sans variable");
  expect(t("a.b", { name: "Marie" })).toBe("Bonjour Marie, {{count}} messages");
  expect(t("a.missing", { defaultValue: "shipped" })).toBe("shipped");
  expect(t("a.missing")).toBe("a.missing");
  expect(t("a")).toBe("a");
});
