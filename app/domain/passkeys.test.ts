import { expect, test } from "vitest";
import { PASSKEY_NAME_MAX, passkeyNameSchema } from "./passkeys";

const messageOf = (value: unknown) => passkeyNameSchema.safeParse(value).error?.issues[0]?.message;

test("a name is trimmed and kept as typed otherwise", () => {
  expect(passkeyNameSchema.parse("  iPhone de Marie ")).toBe("iPhone de Marie");
  expect(passkeyNameSchema.parse("Clé 🔑 « bureau »")).toBe("Clé 🔑 « bureau »");
});

test("an empty name, or one of spaces, or none at all, asks for a name", () => {
  expect(messageOf("")).toBe("passkeys.errors.nameRequired");
  expect(messageOf("   ")).toBe("passkeys.errors.nameRequired");
  expect(messageOf(undefined)).toBe("passkeys.errors.nameRequired");
  expect(messageOf(42)).toBe("passkeys.errors.nameRequired");
});

test("a name of 60 characters passes, 61 do not (spaces around are not counted)", () => {
  expect(passkeyNameSchema.parse(`  ${"a".repeat(PASSKEY_NAME_MAX)}  `)).toHaveLength(60);
  expect(messageOf("a".repeat(PASSKEY_NAME_MAX + 1))).toBe("passkeys.errors.nameTooLong");
});

test("line breaks, tabs, escapes and bidirectional overrides are refused", () => {
  for (const name of ["iPhone\nde Marie", "iPhone\tde Marie", "iPhone\u0000", "a\u001b[31mb", "a\u2028b", "a\u202Eb"]) {
    expect(messageOf(name), JSON.stringify(name)).toBe("passkeys.errors.nameFormat");
  }
});
