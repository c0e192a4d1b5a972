import { randomBytes } from "node:crypto";
import { dirname, resolve } from "node:path";
import { test as base, type Page } from "@playwright/test";
import { openDatabase, type DatabaseHandle } from "../../app/.server/db";
import {
  createAccount,
  createAllowanceRow,
  createRefund,
  createPendingChange,
  type AccountSpec,
  type CreatedAccount,
} from "../../app/.server/db/factories";
import type { AllowanceTable, ExpenseRequestTable } from "../../app/.server/db/schema";
import {
  activationMessage,
  createActivationToken,
  DEMO_PASSWORD,
  registerDemoCards,
  registerDemoPayments,
  seedMarieCopy,
  sendPendingPhoneCode,
} from "../../app/.server/db/seed";
import { hashPassword } from "../../app/.server/passwords";
import { SandboxIssuer } from "../../app/.server/providers/issuer/sandbox";
import { SandboxMessenger } from "../../app/.server/providers/messaging/sandbox";
import { SandboxPaymentProcessor } from "../../app/.server/providers/payments/sandbox";
import { newSecretToken } from "../../app/.server/tokens";
import { createDatabaseSessionStorage } from "../../app/.server/session";
import { E2E_SESSION_SECRET, e2eDatabaseFile } from "./servers";

export { expect } from "@playwright/test";

/** What a journey asks of its account; the e-mail is made unique, the password is the demo one. */
export type AccountOptions = Omit<AccountSpec, "email" | "passwordHash"> & {
  /** A phone change waiting for its code (sent to this number, in the outbox), as paul's in the demo. */
  pendingPhone?: string;
};

export interface TestAccount extends CreatedAccount {
  password: string;
}

interface WorkerFixtures {
  /** This project's e2e database (the one its server uses), opened by the test process. */
  e2eDatabase: { handle: DatabaseHandle; root: string };
  /** The demo password's hash, made once per worker (hashing is slow on purpose). */
  passwordHash: string;
}

interface TestFixtures {
  /**
   * Whether this browser has already answered the consent banner (decision 0059): yes unless a file says
   * `test.use({ consentChosen: false })`, so that the banner is met only by the journeys about it.
   */
  consentChosen: boolean;
  /** A fresh account of this test's own (unique e-mail), with the cards, wallets… it asks for. */
  makeAccount: (options?: AccountOptions) => Promise<TestAccount>;
  /**
   * A fresh copy of the demo's marie (seed.ts `seedMarieCopy`): her cards, wallets, history, refunds, allowance
   * and 20 notifications under a unique e-mail, for the journeys that change marie's data. Cards by last four
   * (4242, 5556, 1881), wallets by name, as makeAccount's; `groupId` is Acme France.
   */
  makeMarie: () => Promise<TestAccount>;
  /**
   * Signs this page's browser in as `account` by planting a session: the row and the signed cookie the
   * portal makes after a full sign-in (password and second factor), without going through the forms.
   */
  signInAs: (page: Page, account: TestAccount) => Promise<void>;
  /**
   * A refund request of `account`'s, as the platform stores it (status sent unless told), for the
   * demo catalogue's expense type and partner named; paid from the wallets named (held while in progress).
   */
  makeRefund: (account: TestAccount, request: RefundSpec) => Promise<string>;
  /**
   * An allowance of `account`'s with its own employer (status sent unless told), as the platform stores one
   * after a confirmation (`buildAllowance`'s figures unless told), with the monthly payouts given.
   */
  makeAllowance: (
    account: TestAccount,
    fields?: Partial<AllowanceTable>,
    payouts?: Parameters<typeof createAllowanceRow>[2],
  ) => Promise<string>;
}

export interface RefundSpec {
  /** An expense type's technical name (demo catalogue), e.g. "culture". */
  type: string;
  /** A partner's French name (demo catalogue). */
  partner: string;
  /** Cents. */
  amount: number;
  /** Wallet names of the account and the cents each pays (default: none). */
  split?: Record<string, number>;
  /** Anything else of the row: status, reasons, flags, dates. */
  fields?: Partial<ExpenseRequestTable>;
}

/**
 * Journeys that change data work on accounts of their own, so each file passes alone and in any
 * order; the demo accounts (shared/DEMO.md) are only read (the smoke journeys). README "Tests".
 */
/**
 * With JavaScript on, a page loaded by `goto` or `reload` is handed back once React has hydrated it (the
 * root's effect sets `window.portalHydrated`): before that a click can land on server HTML that hydration
 * then resets (a radio unticked again, a handler not yet attached). Pages without the app's scripts (a
 * refusal page of the server's own) are handed back at once.
 */
async function whenHydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      (window as { portalHydrated?: boolean }).portalHydrated === true ||
      document.querySelector('script[type="module"]') === null,
  );
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  consentChosen: [true, { option: true }],
  // Everything refused, as the banner's "Tout refuser" leaves it: the cookie the consent action sets.
  context: async ({ context, consentChosen, baseURL }, provide) => {
    if (consentChosen && baseURL) await context.addCookies([{ name: "consent", value: "refuse.refuse", url: baseURL }]);
    await provide(context);
  },
  page: async ({ page, javaScriptEnabled }, provide) => {
    if (javaScriptEnabled) {
      const goto = page.goto.bind(page);
      const reload = page.reload.bind(page);
      page.goto = async (...args) => {
        const response = await goto(...args);
        await whenHydrated(page);
        return response;
      };
      page.reload = async (...args) => {
        const response = await reload(...args);
        await whenHydrated(page);
        return response;
      };
    }
    await provide(page);
  },

  e2eDatabase: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none here.
    async ({}, provide, workerInfo) => {
      const root = dirname(workerInfo.config.configFile ?? resolve("playwright.config.ts"));
      const handle = openDatabase(`file:${resolve(root, e2eDatabaseFile(workerInfo.project.name))}`);
      await provide({ handle, root });
      await handle.close();
    },
    { scope: "worker" },
  ],
  passwordHash: [
    // eslint-disable-next-line no-empty-pattern -- as above.
    async ({}, provide) => {
      await provide(await hashPassword(DEMO_PASSWORD));
    },
    { scope: "worker" },
  ],

  makeAccount: async ({ e2eDatabase, passwordHash }, provide, testInfo) => {
    const { handle, root } = e2eDatabase;
    const slug = testInfo.titlePath
      .at(-1)!
      .toLowerCase()
      .replace(/[^a-z]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 24);
    await provide(async (options = {}) => {
      const { pendingPhone, ...spec } = options;
      const email = `${slug || "test"}-${randomBytes(4).toString("hex")}@example.com`;
      const now = new Date();
      const account = await createAccount(handle.db, { ...spec, email, passwordHash }, now);
      // The sandbox providers keep their own records, as real ones would: tell them about the new rows.
      await registerDemoCards(
        handle.db,
        new SandboxIssuer(handle.db, resolve(root, "data/sandbox-issuer.key")),
        account.userId,
      );
      await registerDemoPayments(handle.db, new SandboxPaymentProcessor(handle.db), account.userId);
      if (spec.invited) {
        // The invitation e-mail, in the outbox as the demo's nina's.
        const token = newSecretToken();
        await createActivationToken(handle.db, account.userId, token, now);
        await new SandboxMessenger(handle.db).send(activationMessage(testInfo.project.use.baseURL ?? "", token, email));
      }
      if (pendingPhone) {
        await createPendingChange(handle.db, {
          user_id: account.userId,
          field_name: "phone",
          new_value: pendingPhone,
          created_at: now.toISOString(),
        });
        await sendPendingPhoneCode(handle.db, new SandboxMessenger(handle.db), account.userId, pendingPhone, now);
      }
      return { ...account, password: DEMO_PASSWORD };
    });
  },

  makeMarie: async ({ e2eDatabase, passwordHash }, provide) => {
    const { handle, root } = e2eDatabase;
    await provide(async () => {
      const email = `marie-${randomBytes(4).toString("hex")}@example.com`;
      const userId = await seedMarieCopy(handle.db, { email, passwordHash, now: new Date() });
      await registerDemoCards(
        handle.db,
        new SandboxIssuer(handle.db, resolve(root, "data/sandbox-issuer.key")),
        userId,
      );
      await registerDemoPayments(handle.db, new SandboxPaymentProcessor(handle.db), userId);
      const cards = await handle.db
        .selectFrom("cards")
        .select(["id", "last_four"])
        .where("user_id", "=", userId)
        .execute();
      const wallets = await handle.db
        .selectFrom("wallets")
        .select(["id", "name"])
        .where("user_id", "=", userId)
        .execute();
      const acme = await handle.db
        .selectFrom("memberships as m")
        .innerJoin("groups as g", "g.id", "m.group_id")
        .select("g.id")
        .where("m.user_id", "=", userId)
        .where("g.name", "=", "Acme France")
        .executeTakeFirstOrThrow();
      return {
        userId,
        email,
        groupId: acme.id,
        cards: Object.fromEntries(cards.map((c) => [c.last_four, c.id])),
        wallets: Object.fromEntries(wallets.map((w) => [w.name, w.id])),
        password: DEMO_PASSWORD,
      };
    });
  },

  makeRefund: async ({ e2eDatabase }, provide) => {
    const { db } = e2eDatabase.handle;
    await provide(async (account, spec) => {
      const type = await db
        .selectFrom("expense_types")
        .select("id")
        .where("technical_name", "=", spec.type)
        .executeTakeFirstOrThrow();
      const partner = await db
        .selectFrom("partners")
        .select("id")
        .where("name_fr", "=", spec.partner)
        .executeTakeFirstOrThrow();
      const split = Object.entries(spec.split ?? {}).map(([name, amount]) => {
        const walletId = account.wallets[name];
        if (!walletId) throw new Error(`makeRefund: no wallet ${name}`);
        return { walletId, amount };
      });
      const row = await createRefund(
        db,
        { user_id: account.userId, type_id: type.id, partner_id: partner.id, amount: spec.amount, ...spec.fields },
        split,
      );
      return row.id;
    });
  },

  makeAllowance: async ({ e2eDatabase }, provide) => {
    await provide(async (account, fields = {}, payouts = []) => {
      const row = await createAllowanceRow(
        e2eDatabase.handle.db,
        { user_id: account.userId, group_id: account.groupId, ...fields },
        payouts,
      );
      return row.id;
    });
  },

  signInAs: async ({ e2eDatabase }, provide, testInfo) => {
    const storage = createDatabaseSessionStorage(e2eDatabase.handle.db, {
      APP_MODE: "sandbox",
      sessionSecrets: [E2E_SESSION_SECRET],
    });
    const baseURL = testInfo.project.use.baseURL;
    if (!baseURL) throw new Error("signInAs: the project has no baseURL");
    await provide(async (page, account) => {
      const session = await storage.getSession();
      session.set("userId", account.userId);
      const setCookie = await storage.commitSession(session);
      const pair = setCookie.slice(0, setCookie.indexOf(";"));
      const eq = pair.indexOf("=");
      await page
        .context()
        .addCookies([
          { name: pair.slice(0, eq), value: pair.slice(eq + 1), url: baseURL, httpOnly: true, sameSite: "Lax" },
        ]);
    });
  },
});
