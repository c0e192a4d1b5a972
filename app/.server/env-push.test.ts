import { execFileSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import webpush from "web-push";
import { DEFAULT_PUSH_SERVICE_HOSTS } from "~/domain/push";
import { parseEnv } from "./env";

/**
 * The Web Push settings (decision 0063): VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT together or none,
 * each of the right form, the two keys one pair; PUSH_SERVICE_HOSTS a list of host names, the browsers' push
 * services when unset. `npm run vapid-keys` prints a pair the server accepts.
 */
const pair = webpush.generateVAPIDKeys();
const full = {
  VAPID_PUBLIC_KEY: pair.publicKey,
  VAPID_PRIVATE_KEY: pair.privateKey,
  VAPID_SUBJECT: "mailto:ops@portail.example",
};

describe("VAPID settings", () => {
  test("none: no browser push; all three: accepted as given", () => {
    expect(parseEnv({}).VAPID_PUBLIC_KEY).toBeUndefined();
    expect(parseEnv(full)).toMatchObject(full);
    expect(parseEnv({ ...full, VAPID_SUBJECT: "https://portail.example/contact" }).VAPID_SUBJECT).toBe(
      "https://portail.example/contact",
    );
  });

  const refused: [string, Record<string, string>, RegExp][] = [
    ["a public key without its private key", { VAPID_PUBLIC_KEY: pair.publicKey }, /VAPID_PRIVATE_KEY must be set/],
    ["a private key without its public key", { VAPID_PRIVATE_KEY: pair.privateKey }, /VAPID_PUBLIC_KEY must be set/],
    ["a subject alone", { VAPID_SUBJECT: "mailto:ops@portail.example" }, /VAPID_SUBJECT needs/],
    ["keys without a subject", { ...full, VAPID_SUBJECT: "" }, /VAPID_SUBJECT must be a mailto: or https:/],
    ["an http: subject", { ...full, VAPID_SUBJECT: "http://portail.example" }, /VAPID_SUBJECT must be/],
    ["a bare address as subject", { ...full, VAPID_SUBJECT: "ops@portail.example" }, /VAPID_SUBJECT must be/],
    ["a public key of 64 bytes", { ...full, VAPID_PUBLIC_KEY: pair.publicKey.slice(0, 85) }, /65-byte P-256 point/],
    ["a private key of 31 bytes", { ...full, VAPID_PRIVATE_KEY: pair.privateKey.slice(0, 42) }, /32 bytes/],
    ["a public key in standard base64", { ...full, VAPID_PUBLIC_KEY: `+${pair.publicKey.slice(1)}` }, /P-256 point/],
    ["a padded private key", { ...full, VAPID_PRIVATE_KEY: `${pair.privateKey}=` }, /32 bytes/],
    [
      "a public key that is not the private key's",
      { ...full, VAPID_PUBLIC_KEY: webpush.generateVAPIDKeys().publicKey },
      /is not VAPID_PRIVATE_KEY's public key/,
    ],
  ];
  for (const [what, settings, message] of refused)
    test(`refused: ${what}`, () => {
      expect(() => parseEnv(settings)).toThrow(message);
    });
});

describe("PUSH_SERVICE_HOSTS", () => {
  test("unset or blank: the browsers' push services; set: its hosts, trimmed and lower-cased", () => {
    expect(parseEnv({}).PUSH_SERVICE_HOSTS).toEqual(DEFAULT_PUSH_SERVICE_HOSTS);
    expect(parseEnv({ PUSH_SERVICE_HOSTS: " " }).PUSH_SERVICE_HOSTS).toEqual(DEFAULT_PUSH_SERVICE_HOSTS);
    expect(parseEnv({ PUSH_SERVICE_HOSTS: " FCM.googleapis.com , 127.0.0.1," }).PUSH_SERVICE_HOSTS).toEqual([
      "fcm.googleapis.com",
      "127.0.0.1",
    ]);
  });

  test("a URL, a path or a wildcard is not a host name", () => {
    for (const bad of ["https://fcm.googleapis.com", "fcm.googleapis.com/fcm", "*.googleapis.com", "-bad.example"])
      expect(() => parseEnv({ PUSH_SERVICE_HOSTS: bad })).toThrow(/PUSH_SERVICE_HOSTS/);
  });
});

test("npm run vapid-keys prints a pair the server accepts, a new one each time", () => {
  const run = () => {
    const printed = execFileSync("npx", ["tsx", "scripts/vapid-keys.ts"], { encoding: "utf8" });
    return Object.fromEntries(
      printed
        .split("\n")
        .filter((line) => /^VAPID_\w+=/.test(line))
        .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
    );
  };
  const first = run();
  expect(Object.keys(first)).toEqual(["VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY", "VAPID_SUBJECT"]);
  const env = parseEnv({ ...first, VAPID_SUBJECT: "mailto:ops@portail.example" });
  expect(env.VAPID_PUBLIC_KEY).toBe(first.VAPID_PUBLIC_KEY);
  expect(run().VAPID_PRIVATE_KEY).not.toBe(first.VAPID_PRIVATE_KEY);
}, 30_000);
