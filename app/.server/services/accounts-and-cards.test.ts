import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { DEMO_EMAILS, DEMO_PASSWORD, seedDemo } from "../db/seed";
import { openTestDatabase } from "../../../tests/support/test-database";
import { SandboxMessenger } from "../providers/messaging/sandbox";
import {
  authenticateWithPassword,
  checkCredentials,
  codeDestination,
  completeOnboardingProfile,
  getAccount,
  initialsOf,
  isOnboarded,
  maskDestination,
} from "./accounts";
import { availableCardLicences, getCardDetail, listCards } from "./cards";
import { listWallets } from "./wallets";
import { saveConsent } from "./analytics";

let handle: DatabaseHandle;
const ids: Record<keyof typeof DEMO_EMAILS, string> = {
  marie: "",
  lucas: "",
  claire: "",
  paul: "",
  nina: "",
  sophie: "",
};

beforeAll(async () => {
  handle = await openTestDatabase();
  await seedDemo(handle.db, new SandboxMessenger(handle.db), { now: new Date(), baseUrl: "http://localhost:3000" });
  for (const [who, email] of Object.entries(DEMO_EMAILS)) {
    ids[who as keyof typeof ids] = (
      await handle.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()
    ).id;
  }
}, 30_000);
afterAll(() => handle.close());

test("the demo password opens each active account; case and spaces in the e-mail do not matter", async () => {
  expect(await authenticateWithPassword(handle.db, DEMO_EMAILS.marie, DEMO_PASSWORD)).toBe(ids.marie);
  expect(await authenticateWithPassword(handle.db, "  Marie.Martin@Example.com ", DEMO_PASSWORD)).toBe(ids.marie);
});

test("wrong password, unknown e-mail and an invitation not yet activated are all refused alike", async () => {
  expect(await authenticateWithPassword(handle.db, DEMO_EMAILS.marie, "Demo-Portail-2026?")).toBeNull();
  expect(await authenticateWithPassword(handle.db, "nobody@example.com", DEMO_PASSWORD)).toBeNull();
  expect(await authenticateWithPassword(handle.db, DEMO_EMAILS.nina, DEMO_PASSWORD)).toBeNull();
  expect(await getAccount(handle.db, ids.nina)).toBeNull();
});

test("a disabled account is said to be under review only to whoever gives its right password (001 §1)", async () => {
  await handle.db.updateTable("users").set({ status: "disabled" }).where("id", "=", ids.lucas).execute();
  try {
    expect(await checkCredentials(handle.db, DEMO_EMAILS.lucas, DEMO_PASSWORD)).toEqual({ kind: "disabled" });
    expect(await checkCredentials(handle.db, DEMO_EMAILS.lucas, "Demo-Portail-2026?")).toEqual({ kind: "invalid" });
    expect(await authenticateWithPassword(handle.db, DEMO_EMAILS.lucas, DEMO_PASSWORD)).toBeNull();
    expect(await getAccount(handle.db, ids.lucas)).toBeNull();
  } finally {
    await handle.db.updateTable("users").set({ status: "active" }).where("id", "=", ids.lucas).execute();
  }
});

test("onboarded means a complete profile and at least one card", async () => {
  const marie = (await getAccount(handle.db, ids.marie))!;
  const lucas = (await getAccount(handle.db, ids.lucas))!;
  const claire = (await getAccount(handle.db, ids.claire))!;
  expect(await isOnboarded(handle.db, marie)).toBe(true);
  expect(await isOnboarded(handle.db, claire)).toBe(true);
  expect(await isOnboarded(handle.db, lucas)).toBe(false);
  expect(marie.groups.map((g) => g.name)).toEqual(["Acme France", "CSE Acme"]);
  expect(initialsOf(marie)).toBe("MM");
  expect(initialsOf(lucas)).toBe("L");
  expect(marie.mfaEnabled).toBe(true);
  expect(claire.permissions).toContain("bypassMFA");
});

test("codes go to the preferred channel, shown masked", async () => {
  const marie = (await getAccount(handle.db, ids.marie))!;
  expect(codeDestination(marie)).toEqual({ channel: "email", destination: DEMO_EMAILS.marie });
  expect(codeDestination({ ...marie, mfaPreferred: "SMS" })).toEqual({ channel: "sms", destination: marie.phone });
  expect(codeDestination({ ...marie, mfaPreferred: "SMS", phone: null }).channel).toBe("email");
  expect(maskDestination("email", "marie.martin@example.com")).toBe("m•••n@example.com");
  expect(maskDestination("sms", "+33612345678")).toBe("•• •• •• 56 78");
});

test("marie's cards in navigation order, her first card's wallets and balances", async () => {
  const cards = await listCards(handle.db, ids.marie);
  expect(cards.map((c) => `${c.type} ${c.lastFour}`)).toEqual(["physical 4242", "virtual 5556", "physical 1881"]);
  const card = (await getCardDetail(handle.db, ids.marie, cards[0]!.id))!;
  expect(card.linkedWallets.map((w) => w.name)).toEqual(["Titres-restaurant", "Mobilité", "Cadeaux de Noël"]);
  expect(card.pinCanUpdate).toBe(true);
  expect(card.shipping?.status).toBe("delivered");
  // Reserved = the two frozen authorizations (18,90 + 12,00); total = available + reserved.
  expect(card.balances.reserved).toBe(3090);
  expect(card.balances.total).toBe(card.balances.available + card.balances.reserved);
  const sum = card.linkedWallets.reduce((s, w) => s + (w.available ?? 0), 0);
  expect(card.balances.available).toBe(sum);
});

test("nobody reaches another user's card, whatever the id", async () => {
  const [marieCard] = await listCards(handle.db, ids.marie);
  expect(await getCardDetail(handle.db, ids.claire, marieCard!.id)).toBeNull();
  expect(await getCardDetail(handle.db, ids.claire, "card_unknown")).toBeNull();
  expect(await getCardDetail(handle.db, ids.claire, "' or 1=1 --")).toBeNull();
  expect(await listCards(handle.db, ids.lucas)).toEqual([]);
});

test("wallet amounts: the unlimited wallet has none; frozen amounts are taken off", async () => {
  const wallets = await listWallets(handle.db, ids.marie);
  const byName = Object.fromEntries(wallets.map((w) => [w.name, w]));
  expect(byName["Culture"]!.available).toBeNull();
  expect(byName["Mobilité"]!.frozen).toBe(1200);
  expect(byName["Mobilité"]!.available).toBe(42000 - 1200);
  expect(byName["Cadeaux de Noël"]!.available).toBe(20000);
  expect(await listWallets(handle.db, ids.paul)).toEqual([]);
});

test("card licences still available: marie one of each, claire none", async () => {
  expect(await availableCardLicences(handle.db, ids.marie)).toEqual({ physical: 1, virtual: 1 });
  expect(await availableCardLicences(handle.db, ids.lucas)).toEqual({ physical: 1, virtual: 1 });
  expect(await availableCardLicences(handle.db, ids.claire)).toEqual({ physical: 0, virtual: 0 });
});

test("onboarding's profile step is for newcomers only: an onboarded account's names and phone stay as they are", async () => {
  const attacker = { firstName: "Eve", lastName: "Attacker", phone: "+33700000066" };
  // claire is onboarded; paul too, though held until his phone change and second factor are settled.
  for (const who of ["claire", "paul"] as const) {
    const before = await getAccount(handle.db, ids[who]);
    expect(await completeOnboardingProfile(handle.db, ids[who], attacker), who).toEqual({ kind: "alreadyOnboarded" });
    expect(await getAccount(handle.db, ids[who]), who).toEqual(before);
  }
  // lucas, a newcomer, completes his.
  expect(
    await completeOnboardingProfile(handle.db, ids.lucas, {
      firstName: "Lucas",
      lastName: "Bernard",
      phone: "+33611223344",
    }),
  ).toEqual({ kind: "saved" });
  expect(await getAccount(handle.db, ids.lucas)).toMatchObject({
    firstName: "Lucas",
    lastName: "Bernard",
    phone: "+33611223344",
    termsConfirmed: true,
  });
});

test("the account is read with its groups by name and its consent choice, in one statement", async () => {
  const marie = (await getAccount(handle.db, ids.marie))!;
  const names = marie.groups.map((g) => g.name);
  expect(names.length).toBeGreaterThan(0);
  expect(names).toEqual([...names].sort());
  // A group with a quote and a name sorting first, added then removed: every group, in order, each once.
  const model = await handle.db
    .selectFrom("groups")
    .selectAll()
    .where("id", "=", marie.groups[0]!.id)
    .executeTakeFirstOrThrow();
  await handle.db
    .insertInto("groups")
    .values({ ...model, id: "grp_test_quote", name: `A "quoted" group's name` })
    .execute();
  await handle.db.insertInto("memberships").values({ user_id: ids.marie, group_id: "grp_test_quote" }).execute();
  try {
    const again = (await getAccount(handle.db, ids.marie))!;
    expect(again.groups).toEqual([{ id: "grp_test_quote", name: `A "quoted" group's name` }, ...marie.groups]);
  } finally {
    await handle.db.deleteFrom("memberships").where("group_id", "=", "grp_test_quote").execute();
    await handle.db.deleteFrom("groups").where("id", "=", "grp_test_quote").execute();
  }
  // No group at all: an empty list.
  const lucas = await handle.db.selectFrom("memberships").select("group_id").where("user_id", "=", ids.lucas).execute();
  await handle.db.deleteFrom("memberships").where("user_id", "=", ids.lucas).execute();
  try {
    expect((await getAccount(handle.db, ids.lucas))!.groups).toEqual([]);
  } finally {
    if (lucas.length)
      await handle.db
        .insertInto("memberships")
        .values(lucas.map((m) => ({ user_id: ids.lucas, group_id: m.group_id })))
        .execute();
  }
  // The consent choice: none until made.
  expect(marie.consentDecided).toBe(false);
  await saveConsent(handle.db, ids.marie, { analytics: false, tagManager: true });
  expect((await getAccount(handle.db, ids.marie))!.consentDecided).toBe(true);
  await handle.db.deleteFrom("consents").where("user_id", "=", ids.marie).execute();
});
