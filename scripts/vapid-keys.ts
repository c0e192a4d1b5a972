/**
 * `npm run vapid-keys`: a fresh VAPID key pair for Web Push (decision 0063), printed as the lines of .env to paste
 * (VAPID_SUBJECT is left for the operator to fill: the address push services may write to). Nothing is stored: the
 * private key is on the screen once. Replacing the keys of a running portal makes every browser subscribe again.
 */
import webpush from "web-push";
import { parseEnv } from "../app/.server/env";

const { publicKey, privateKey } = webpush.generateVAPIDKeys();
// The pair is checked as the server will check it at start (env.ts): a pair it refuses is never printed.
parseEnv({ VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey, VAPID_SUBJECT: "mailto:ops@example.com" });
process.stdout.write(
  [
    `VAPID_PUBLIC_KEY=${publicKey}`,
    `VAPID_PRIVATE_KEY=${privateKey}`,
    "# Who the push services may write to about this server: mailto:<address> or https:<page>.",
    "VAPID_SUBJECT=",
    "",
  ].join("\n"),
);
