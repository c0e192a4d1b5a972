import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "../db";
import { seedDemo } from "../db/seed";
import { openTestDatabase } from "../../../tests/support/test-database";
import { CrispSupportChat } from "../providers/chat/crisp";
import { SandboxSupportChat } from "../providers/chat/sandbox";
import { SandboxMessenger } from "../providers/messaging/sandbox";
import {
  AWAITING_ANSWER_MS,
  awaitingAnswer,
  sendSupportMessage,
  supportConversation,
  type SupportDeps,
} from "./support";

let handle: DatabaseHandle;
let deps: SupportDeps;
let marie: string;
let paul: string;
let marieCard: string;
let paulCard: string;

beforeAll(async () => {
  handle = await openTestDatabase();
  await seedDemo(handle.db, new SandboxMessenger(handle.db), { now: new Date(), baseUrl: "http://localhost" });
  const id = async (email: string) =>
    (await handle.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
  const cardOf = async (userId: string) =>
    (await handle.db.selectFrom("cards").select("id").where("user_id", "=", userId).executeTakeFirstOrThrow()).id;
  marie = await id("marie.martin@example.com");
  paul = await id("paul.durand@example.com");
  marieCard = await cardOf(marie);
  paulCard = await cardOf(paul);
  deps = { db: handle.db, supportChat: new SandboxSupportChat(handle.db) };
}, 30_000);
afterAll(() => handle.close());

test("a message is kept in the user's conversation and answered by the sandbox's acknowledgement", async () => {
  expect(await supportConversation(deps, marie)).toEqual([]);
  expect(await sendSupportMessage(deps, marie, "Ma carte n’est pas arrivée.", marieCard)).toEqual({ kind: "ok" });
  const conversation = await supportConversation(deps, marie);
  expect(conversation.map((m) => [m.author, m.body, m.automatic])).toEqual([
    ["user", "Ma carte n’est pas arrivée.", false],
    ["support", "support.sandboxAcknowledgement", true],
  ]);
  const contexts = await handle.db
    .selectFrom("support_messages")
    .select("context")
    .where("user_id", "=", marie)
    .execute();
  expect(contexts.map((c) => c.context)).toEqual([`card:${marieCard}`, `card:${marieCard}`]);
});

test("markup is kept as text, and nothing of one user's conversation is shown to another", async () => {
  const markup = '<img src=x onerror="alert(1)"><b>gras</b>';
  await sendSupportMessage(deps, paul, markup, null);
  expect((await supportConversation(deps, paul))[0]?.body).toBe(markup);
  expect((await supportConversation(deps, marie)).some((m) => m.body === markup)).toBe(false);
});

test("a message about another user's card, or a card that does not exist, is refused and nothing is stored", async () => {
  const before = await supportConversation(deps, marie);
  expect(await sendSupportMessage(deps, marie, "Bonjour", paulCard)).toEqual({ kind: "notFound" });
  expect(await sendSupportMessage(deps, marie, "Bonjour", "card_missing")).toEqual({ kind: "notFound" });
  expect(await supportConversation(deps, marie)).toEqual(before);
});

test("Crisp keeps no conversation in the portal, and its token id is stable per user and never the user's id", async () => {
  const crisp = new CrispSupportChat({ websiteId: "00000000-0000-0000-0000-000000000000", secret: "s".repeat(32) });
  const crispDeps = { db: handle.db, supportChat: crisp };
  expect(await sendSupportMessage(crispDeps, marie, "Bonjour", null)).toEqual({ kind: "unavailable" });
  expect(await supportConversation(crispDeps, marie)).toEqual([]);
  const token = crisp.browserChat(marie).tokenId;
  expect(token).toBe(crisp.browserChat(marie).tokenId);
  expect(token).not.toBe(crisp.browserChat(paul).tokenId);
  expect(token).not.toContain(marie);
  const other = new CrispSupportChat({ websiteId: "00000000-0000-0000-0000-000000000000", secret: "t".repeat(32) });
  expect(other.browserChat(marie).tokenId).not.toBe(token);
});

test("the user waits for an answer only while their own last message is recent", () => {
  const now = new Date("2026-11-24T10:00:00.000Z");
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString();
  const limit = AWAITING_ANSWER_MS / 60_000;
  const cases: [[string, number][], boolean][] = [
    [[], false],
    [[["user", 1]], true],
    [[["user", limit - 0.1]], true],
    [[["user", limit]], false],
    [
      [
        ["user", 2],
        ["support", 1],
      ],
      false,
    ],
    [
      [
        ["support", 3],
        ["user", 2],
      ],
      true,
    ],
  ];
  for (const [messages, waiting] of cases) {
    const conversation = messages.map(([author, ago]) => ({
      author: author as "user" | "support",
      createdAt: at(ago),
    }));
    expect(awaitingAnswer(conversation, now), JSON.stringify(messages)).toBe(waiting);
  }
});
