import { z } from "zod";
import { decodeBase64Url, PUSH_ENDPOINT_MAX_LENGTH } from "./push";

/**
 * The schema of a browser's Web Push subscription (issue 33 item 2, decision 0063), kept apart from push.ts so that
 * the pages importing its constants do not ship zod (decision 0044; tests/server/browser-bundle.test.ts).
 */

/** A base64url text of exactly `bytes` bytes whose first byte, when given, is `first`; kept without padding. */
const base64UrlBytes = (bytes: number, first?: number) =>
  z
    .string()
    .max(200)
    .refine((text) => {
      const decoded = decodeBase64Url(text);
      return decoded !== null && decoded.length === bytes && (first === undefined || decoded[0] === first);
    })
    .transform((text) => text.replace(/=+$/, ""));

/**
 * A browser's PushSubscription as its `toJSON()` gives it: the push service's endpoint, the subscription's
 * P-256 public key (65 bytes, uncompressed: 0x04, x, y) and its 16-byte authentication secret (RFC 8291 §2).
 * Whether the point lies on the curve is checked on the server (services/push-subscriptions.ts).
 */
export const pushSubscriptionSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(PUSH_ENDPOINT_MAX_LENGTH),
  keys: z.object({
    p256dh: base64UrlBytes(65, 0x04),
    auth: base64UrlBytes(16),
  }),
  expirationTime: z.number().nullable().optional(),
});

export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;
