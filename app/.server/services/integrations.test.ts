import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { createAccount, type CreatedAccount } from "../db/factories";
import { openTestDatabase } from "../../../tests/support/test-database";
import type { PartnerLinks } from "../providers/partner-links";
import {
  redeemSandboxPartnerLink,
  SANDBOX_LINK_TTL_MS,
  SandboxPartnerLinks,
  setSandboxAccess,
} from "../providers/partner-links/sandbox";
import { getIntegrations, listPartnerOpenings, openPartner } from "./integrations";

let handle: DatabaseHandle;
let marie: CreatedAccount;
let claire: CreatedAccount;
let sandbox: SandboxPartnerLinks;

const ALL = {
  integrations: { uggy: true, "uggy-vouchers": true, klaro: ["g"], joko: true, "decathlon-integrations": true },
  allowances: { any: true },
  expenseRequests: { any: true },
};

beforeAll(async () => {
  handle = await openTestDatabase();
  marie = await createAccount(handle.db, { email: "marie-int@example.com", passwordHash: "x", features: ALL });
  claire = await createAccount(handle.db, { email: "claire-int@example.com", passwordHash: "x" });
  sandbox = new SandboxPartnerLinks(handle.db, "http://portal.test");
});
afterAll(() => handle.close());

const tokenOf = (url: string) => url.replace("http://portal.test/sandbox-partner/", "");

test("the page shows the services and the partners the flags allow; nothing for claire", async () => {
  expect(await getIntegrations(handle.db, marie.userId)).toEqual({
    services: { expenseRequests: true, allowances: true },
    partners: [
      "uggy-vouchers",
      "uggy",
      "joko",
      "klaro",
      "decathlon-intranet",
      "decathlon-myPeopleDoc",
      "decathlon-winchapps",
    ],
  });
  expect(await getIntegrations(handle.db, claire.userId)).toEqual({
    services: { expenseRequests: false, allowances: false },
    partners: [],
  });
});

test("opening a partner answers a single-use sandbox link, and records the opening", async () => {
  const opened = await openPartner({ db: handle.db, partnerLinks: sandbox }, marie.userId, "uggy");
  if (opened.kind !== "opened") throw new Error(opened.kind);
  expect(opened.url).toMatch(/^http:\/\/portal\.test\/sandbox-partner\/[\w-]{20,}$/);
  const token = tokenOf(opened.url);
  expect(await redeemSandboxPartnerLink(handle.db, token)).toEqual({
    kind: "valid",
    partner: "uggy",
    userId: marie.userId,
  });
  // Reused: refused.
  expect(await redeemSandboxPartnerLink(handle.db, token)).toEqual({ kind: "invalid" });
  expect((await listPartnerOpenings(handle.db, marie.userId))[0]).toMatchObject({ partner: "uggy", outcome: "opened" });
  expect(await listPartnerOpenings(handle.db, claire.userId)).toEqual([]);
});

test("an expired or unknown sandbox link is refused", async () => {
  const now = new Date();
  const opened = await openPartner({ db: handle.db, partnerLinks: sandbox }, marie.userId, "joko", now);
  if (opened.kind !== "opened") throw new Error(opened.kind);
  const later = new Date(Date.now() + SANDBOX_LINK_TTL_MS + 1000);
  expect(await redeemSandboxPartnerLink(handle.db, tokenOf(opened.url), later)).toEqual({ kind: "invalid" });
  expect(await redeemSandboxPartnerLink(handle.db, "nope")).toEqual({ kind: "invalid" });
  expect(await redeemSandboxPartnerLink(handle.db, "x".repeat(500))).toEqual({ kind: "invalid" });
});

test("Klaro turned off in the sandbox: no access, recorded; on again: a link", async () => {
  await setSandboxAccess(handle.db, marie.userId, "klaro", false);
  expect(await openPartner({ db: handle.db, partnerLinks: sandbox }, marie.userId, "klaro")).toEqual({
    kind: "refused",
    message: "noAccess",
  });
  expect((await listPartnerOpenings(handle.db, marie.userId))[0]).toMatchObject({
    partner: "klaro",
    outcome: "noAccess",
  });
  await setSandboxAccess(handle.db, marie.userId, "klaro", true);
  expect((await openPartner({ db: handle.db, partnerLinks: sandbox }, marie.userId, "klaro")).kind).toBe("opened");
});

test("a forged partner, or one the flags do not allow: unknown, nothing asked nor recorded", async () => {
  let asked = 0;
  const spy: PartnerLinks = { name: "none", link: () => (asked++, Promise.resolve({ kind: "failed" })) };
  const before = (await listPartnerOpenings(handle.db, marie.userId)).length;
  for (const partner of ["evil", "decathlon-integrations", "rosaly", undefined, ["uggy"]])
    expect(await openPartner({ db: handle.db, partnerLinks: spy }, marie.userId, partner)).toEqual({
      kind: "unknownPartner",
    });
  expect(await openPartner({ db: handle.db, partnerLinks: spy }, claire.userId, "uggy")).toEqual({
    kind: "unknownPartner",
  });
  expect(asked).toBe(0);
  expect((await listPartnerOpenings(handle.db, marie.userId)).length).toBe(before);
});

test("a partner that fails: its own message", async () => {
  const down: PartnerLinks = { name: "http", link: () => Promise.resolve({ kind: "failed" }) };
  const open = (partner: string) => openPartner({ db: handle.db, partnerLinks: down }, marie.userId, partner);
  expect(await open("uggy-vouchers")).toEqual({ kind: "refused", message: "getUggyFailed" });
  expect(await open("klaro")).toEqual({ kind: "refused", message: "getKlaroFailed" });
  expect(await open("decathlon-winchapps")).toEqual({ kind: "refused", message: "unavailable" });
  expect((await listPartnerOpenings(handle.db, marie.userId))[0]).toMatchObject({ outcome: "failed" });
});
