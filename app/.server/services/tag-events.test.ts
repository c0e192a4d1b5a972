import { afterAll, beforeAll, expect, test, vi } from "vitest";
import type { DatabaseHandle } from "../db";
import { createAccount } from "../db/factories";
import { openTestDatabase } from "../../../tests/support/test-database";
import { createLogger } from "../logger";
import type { AnalyticsProvider } from "../providers/analytics";
import { listRecordedEvents, SandboxAnalytics } from "../providers/analytics/sandbox";
import { SandboxPartnerLinks } from "../providers/partner-links/sandbox";
import { saveConsent } from "./analytics";
import { openPartner } from "./integrations";
import { menuTargets, recordClick, recordInBackground, tagManagerFor } from "./tag-events";

let handle: DatabaseHandle;
const logger = createLogger("silent");

beforeAll(async () => {
  handle = await openTestDatabase();
}, 30_000);
afterAll(() => handle.close());

let n = 0;
const newAccount = (features = {}) =>
  createAccount(handle.db, {
    email: `tags-${++n}@example.com`,
    passwordHash: "unused",
    features,
    cards: [{ type: "physical", lastFour: "4242" }],
    wallets: [{ name: "Culture", type: "culture", balance: 500 }],
  });
const sandboxDeps = () => ({ db: handle.db, analytics: new SandboxAnalytics(handle.db), logger });
const names = async (userId: string) => (await listRecordedEvents(handle.db, userId)).map((e) => e.name);

test("a person's menu targets: their own cards and wallets, the plan tabs their features show, the store locator", async () => {
  const marie = await newAccount({ expenseRequests: { any: true } });
  const targets = await menuTargets(handle.db, marie.userId);
  expect(targets).toContain(`/cards/${marie.cards["4242"]}`);
  expect(targets).toContain(`/wallets/${marie.wallets.Culture}`);
  expect(targets).toContain("/plans/integrations");
  expect(targets).toContain("/plans/expense-requests");
  expect(targets).not.toContain("/plans/allowances");
  expect(targets).toContain("/store-locator");
  expect(await menuTargets(handle.db, "usr_nobody")).toEqual(new Set());
});

test("a menu click is recorded for the person's own target only, and only with consent", async () => {
  const marie = await newAccount();
  const claire = await newAccount();
  const deps = sandboxDeps();
  const own = { name: "clickMenu", properties: { target: `/wallets/${marie.wallets.Culture}` } } as const;
  expect(await recordClick(deps, marie.userId, own)).toEqual({ kind: "noConsent" });

  await saveConsent(handle.db, marie.userId, { analytics: false, tagManager: true });
  const foreign = { name: "clickMenu", properties: { target: `/wallets/${claire.wallets.Culture}` } } as const;
  expect(await recordClick(deps, marie.userId, foreign)).toEqual({ kind: "refused" });
  expect(
    await recordClick(deps, marie.userId, { name: "clickMenu", properties: { target: "/settings/security" } }),
  ).toEqual({ kind: "refused" });
  expect(await recordClick(deps, marie.userId, own)).toEqual({ kind: "recorded" });
  expect(await recordClick(deps, marie.userId, { name: "clickCreateCard", properties: {} })).toEqual({
    kind: "recorded",
  });
  // Recorded in the same millisecond: compared in any order.
  const events = await listRecordedEvents(handle.db, marie.userId);
  expect(events.map((e) => [e.name, e.properties]).sort()).toEqual([
    ["clickCreateCard", {}],
    ["clickMenu", { target: `/wallets/${marie.wallets.Culture}` }],
  ]);

  // Both refused again: nothing more.
  await saveConsent(handle.db, marie.userId, { analytics: false, tagManager: false });
  expect(await recordClick(deps, marie.userId, own)).toEqual({ kind: "noConsent" });
  expect(await names(marie.userId)).toHaveLength(2);
});

test("a failing provider is logged and never thrown at the page", async () => {
  const marie = await newAccount();
  await saveConsent(handle.db, marie.userId, { analytics: true, tagManager: true });
  const down: AnalyticsProvider = {
    name: "down",
    capture: () => Promise.reject(new Error("ECONNREFUSED")),
    identify: () => Promise.reject(new Error("ECONNREFUSED")),
    activeSurvey: () => Promise.reject(new Error("ECONNREFUSED")),
    close: async () => {},
  };
  const warn = vi.fn();
  const deps = { db: handle.db, analytics: down, logger: { ...logger, warn } };
  await expect(recordInBackground(deps, marie.userId, { name: "submitCreateCard", properties: {} })).resolves.toEqual({
    kind: "failed",
  });
  expect(warn).toHaveBeenCalledWith(
    "analytics event not recorded",
    expect.objectContaining({ name: "submitCreateCard" }),
  );
  // The partner still opens, whatever analytics does.
  const partnerLinks = new SandboxPartnerLinks(handle.db, "http://portal.test");
  const withUggy = await newAccount({ integrations: { uggy: true } });
  await saveConsent(handle.db, withUggy.userId, { analytics: false, tagManager: true });
  expect((await openPartner({ ...deps, partnerLinks }, withUggy.userId, "uggy")).kind).toBe("opened");
});

test("a partner's opening is clickPartner, for a partner of the person's own only", async () => {
  const partnerLinks = new SandboxPartnerLinks(handle.db, "http://portal.test");
  const marie = await newAccount({ integrations: { uggy: true } });
  await saveConsent(handle.db, marie.userId, { analytics: false, tagManager: true });
  const deps = { ...sandboxDeps(), partnerLinks };
  expect((await openPartner(deps, marie.userId, "klaro")).kind).toBe("unknownPartner");
  expect((await openPartner(deps, marie.userId, "evil")).kind).toBe("unknownPartner");
  expect((await openPartner(deps, marie.userId, "uggy")).kind).toBe("opened");
  await vi.waitFor(async () =>
    expect(await listRecordedEvents(handle.db, marie.userId)).toEqual([
      expect.objectContaining({ name: "clickPartner", properties: { partner: "uggy" } }),
    ]),
  );
});

test("the tag manager reaches the browser only with its id, a signed-in person and their consent", async () => {
  const marie = await newAccount();
  expect(await tagManagerFor(handle.db, "sandbox", marie.userId)).toBeNull();
  await saveConsent(handle.db, marie.userId, { analytics: true, tagManager: false });
  expect(await tagManagerFor(handle.db, "sandbox", marie.userId)).toBeNull();
  await saveConsent(handle.db, marie.userId, { analytics: false, tagManager: true });
  expect(await tagManagerFor(handle.db, undefined, marie.userId)).toBeNull();
  expect(await tagManagerFor(handle.db, "sandbox", null)).toBeNull();
  expect(await tagManagerFor(handle.db, "sandbox", marie.userId)).toEqual({ scriptUrl: null });
  expect(await tagManagerFor(handle.db, "GTM-AB12CD", marie.userId)).toEqual({
    scriptUrl: "https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD",
  });
});
