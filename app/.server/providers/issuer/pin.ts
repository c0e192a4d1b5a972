import { constants, publicEncrypt } from "node:crypto";
import type { PinEncryptionKey } from "./port";

/** Spec 000 §7 "Update PIN": the PIN leaves the portal only encrypted with the issuer's public key. */
export function encryptPin(pin: string, key: PinEncryptionKey): string {
  return publicEncrypt(
    { key: key.publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
    Buffer.from(pin, "utf8"),
  ).toString("base64");
}
