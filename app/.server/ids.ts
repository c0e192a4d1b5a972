import { randomBytes } from "node:crypto";

/** Random, unguessable ids such as `card_5kq2…`: the prefix says what the id names. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("base64url")}`;
}

export function nowIso(now: Date = new Date()): string {
  return now.toISOString();
}
