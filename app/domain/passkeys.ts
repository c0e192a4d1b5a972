import { z } from "zod";

/**
 * A passkey's name (issue 32 §1): what the settings list shows, "iPhone de Marie" by default. Browser-safe, so the
 * form and the server check the same; messages are catalogue keys.
 */
export const PASSKEY_NAME_MAX = 60;

/**
 * Control characters (line breaks, tabs, escapes), the Unicode line and paragraph separators and the bidirectional
 * overrides (which could make a name read as another): a name is one line of plain text.
 */
const CONTROL_CHARACTERS = /[\p{Cc}\p{Zl}\p{Zp}\u202A-\u202E\u2066-\u2069]/u;

export const passkeyNameSchema = z
  .string({ error: "passkeys.errors.nameRequired" })
  .trim()
  .min(1, "passkeys.errors.nameRequired")
  .max(PASSKEY_NAME_MAX, "passkeys.errors.nameTooLong")
  .refine((name) => !CONTROL_CHARACTERS.test(name), "passkeys.errors.nameFormat");
