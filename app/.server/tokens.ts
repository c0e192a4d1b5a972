import { createHash, randomBytes } from "node:crypto";

/** A secret for a link (activation, password reset): only its hash is stored. */
export function newSecretToken(): string {
  return randomBytes(24).toString("base64url");
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("base64url");
}
