import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTestSchema } from "../support/test-database";
import { signInThroughOutbox, type TestBrowser } from "../support/test-browser";
import { startTestServer, stopTestServer, type TestServer } from "../support/test-server";

/**
 * Issue 18 §4: two machines behind a load balancer — two independent built servers (own ports, no
 * cluster) on one PostgreSQL database, one S3-compatible bucket (s3rver) and one SESSION_SECRET — serve
 * one person alternately. README « Déployer sur plusieurs machines », decision 0041.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
const BUCKET = "receipts-two-machines";
const SENSITIVE_LIMIT = 8;
const RECEIPT = path.resolve(import.meta.dirname, "../fixtures/receipts/cycles-du-rhone-2026-11-02.pdf");
const MARIE = "marie.martin@example.com";

describe.skipIf(!pgUrl)(
  "two machines (needs PostgreSQL: skipped without TEST_DATABASE_URL, run by npm test's PostgreSQL step)",
  () => {
    let schema: Awaited<ReturnType<typeof createTestSchema>>;
    let s3: S3rver;
    let s3Dir: string;
    let a: TestServer;
    let b: TestServer;

    beforeAll(async () => {
      schema = await createTestSchema(pgUrl!);
      s3Dir = mkdtempSync(path.join(tmpdir(), "s3rver-two-machines-"));
      s3 = new S3rver({
        address: "127.0.0.1",
        port: 0,
        silent: true,
        directory: s3Dir,
        configureBuckets: [{ name: BUCKET }],
      });
      const { port: s3Port } = (await s3.run()) as AddressInfo;
      const shared = {
        DATABASE_URL: schema.url,
        FILE_STORAGE: "s3",
        S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
        S3_BUCKET: BUCKET,
        S3_ACCESS_KEY_ID: "S3RVER",
        S3_SECRET_ACCESS_KEY: "S3RVER",
        SESSION_SECRET: "two-machines-share-this-secret-of-32-characters-or-more",
        // Behind the load balancer: the client's address comes from X-Forwarded-For.
        TRUST_PROXY: "1",
        RATE_LIMIT_SENSITIVE: String(SENSITIVE_LIMIT),
        // Wrong passwords below are limited per address, not slowed per account.
        GUESS_LIMIT_PASSWORD: "1000",
      };
      // Both start at once on the empty database: migrated and seeded once, neither fails.
      [a, b] = await Promise.all([
        startTestServer("two-machines-a", 4430, shared),
        startTestServer("two-machines-b", 4431, shared),
      ]);
    }, 90_000);

    afterAll(async () => {
      await Promise.all([stopTestServer(a), stopTestServer(b)]);
      await s3?.close();
      if (s3Dir) rmSync(s3Dir, { recursive: true, force: true });
      await schema?.drop();
    });

    test("both machines started together on the empty database; it was seeded once", async () => {
      const seeded = [a, b].filter((s) => s.output().includes("demo data created"));
      expect(seeded).toHaveLength(1);
      for (const server of [a, b]) {
        const health = await fetch(`${server.base}/healthz`);
        expect(await health.json()).toEqual({ status: "ok", database: "postgres" });
      }
    });

    test("signed in on A (password, then the code from the outbox), the card page and a freeze on B", async () => {
      const onA = await signInThroughOutbox(a.base, MARIE);
      const onB = onA.at(b.base);
      const cards = await onB.get("/cards");
      const cardPath = cards.headers.get("location") ?? "";
      expect(cards.status).toBe(302);
      expect(cardPath).toMatch(/^\/cards\/[\w-]+$/);
      const page = await onB.get(cardPath);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("4242");

      const intentOn = async (browser: TestBrowser) =>
        /<button type="submit" value="(freeze|unfreeze)"[^>]*name="intent"/.exec(
          await (await browser.get(`${cardPath}/freeze`)).text(),
        )?.[1];
      expect(await intentOn(onA)).toBe("freeze");
      const frozen = await onB.post(`${cardPath}/freeze`, { intent: "freeze" });
      expect(frozen.status).toBe(302);
      expect((await onB.follow(frozen)).html).toContain("alert--success");
      // A sees B's write, and undoes it; B sees that.
      expect(await intentOn(onA)).toBe("unfreeze");
      expect((await onA.post(`${cardPath}/freeze`, { intent: "unfreeze" })).status).toBe(302);
      expect(await intentOn(onB)).toBe("freeze");
    });

    test("a receipt uploaded on A downloads on B, the same bytes", async () => {
      // This time the password on B and the code on A.
      const onB = await signInThroughOutbox(b.base, MARIE, { codeBase: a.base });
      const onA = onB.at(a.base);
      const typePage = await (await onA.get("/plans/expense-requests/new")).text();
      const culture = /<input[^>]*value="([^"]+)"[^>]*>[\s\S]{0,400}?Culture/.exec(typePage)?.[1];
      expect(culture).toBeDefined();
      const chosen = await onA.post("/plans/expense-requests/new?step=type", { intent: "continue", type_id: culture! });
      const ticketStep = chosen.headers.get("location") ?? "";
      expect(ticketStep).toMatch(/step=ticket/);

      const bytes = readFileSync(RECEIPT);
      const form = new FormData();
      form.set("intent", "upload");
      form.set("receipt", new Blob([bytes], { type: "application/pdf" }), "cycles-du-rhone.pdf");
      const uploaded = await onA.request(ticketStep, { method: "POST", body: form, headers: { Origin: a.base } });
      expect(uploaded.status).toBe(302);
      const step = await (await onB.get(uploaded.headers.get("location") ?? "")).text();
      const download = /href="(\/plans\/expense-requests\/receipts\/[^"]+)"/.exec(step)?.[1];
      expect(download).toBeDefined();

      const res = await onB.get(download!);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
      // Through the shared bucket, not a machine's own folder.
      const stored = readdirSync(path.join(s3Dir, BUCKET), { recursive: true, withFileTypes: true }).filter(
        (f) => f.isFile() && statSync(path.join(f.parentPath, f.name)).size === bytes.length,
      );
      expect(stored.length).toBeGreaterThan(0);
    });

    test("sign-in attempts are counted across machines: the 429 comes at the same count as on one machine", async () => {
      const wrongPassword = (server: TestServer, address: string) =>
        fetch(`${server.base}/login`, {
          method: "POST",
          body: new URLSearchParams({ email: "personne@example.com", password: "pas-le-bon" }),
          headers: { Origin: server.base, "X-Forwarded-For": address },
          redirect: "manual",
        }).then((res) => res.status);
      const expected = [...Array<number>(SENSITIVE_LIMIT).fill(400), 429];

      const oneMachine: number[] = [];
      for (let i = 0; i <= SENSITIVE_LIMIT; i++) oneMachine.push(await wrongPassword(a, "203.0.113.10"));
      expect(oneMachine).toEqual(expected);

      const alternately: number[] = [];
      for (let i = 0; i <= SENSITIVE_LIMIT; i++) alternately.push(await wrongPassword(i % 2 ? b : a, "203.0.113.11"));
      expect(alternately).toEqual(expected);
      // The address is limited on both machines now.
      expect(await wrongPassword(b, "203.0.113.11")).toBe(429);
      expect(await wrongPassword(a, "203.0.113.11")).toBe(429);
    });
  },
);
