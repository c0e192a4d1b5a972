import type { DB } from "../db";
import { SANDBOX_ACKNOWLEDGEMENT, type ChatMessage, type SupportChat } from "../providers/chat";
import { getCardDetail } from "./cards";

/** What the support chat's services need. */
export interface SupportDeps {
  db: DB;
  supportChat: SupportChat;
}

/** A message as shown: `automatic` when its body is a catalogue key (the sandbox's acknowledgement). */
export type SupportMessageView = ChatMessage & { automatic: boolean };

/** The user's conversation with support, oldest first (empty when the chat is a browser widget). */
export async function supportConversation(deps: SupportDeps, userId: string): Promise<SupportMessageView[]> {
  const messages = await deps.supportChat.messages(userId);
  return messages.map((m) => ({ ...m, automatic: m.author === "support" && m.body === SANDBOX_ACKNOWLEDGEMENT }));
}

/** How long after the user's last unanswered message the page keeps looking for the answer by itself. */
export const AWAITING_ANSWER_MS = 10 * 60_000;

/**
 * Whether the user is waiting for support's answer: the conversation's last message is theirs, sent
 * less than AWAITING_ANSWER_MS ago. Only then does /support refresh itself without JS (an answer is
 * expected soon, and a page that reloads would lose a message being typed: see docs/decisions/0032).
 */
export function awaitingAnswer(messages: readonly Pick<ChatMessage, "author" | "createdAt">[], now: Date): boolean {
  const last = messages.at(-1);
  if (!last || last.author !== "user") return false;
  return now.getTime() - Date.parse(last.createdAt) < AWAITING_ANSWER_MS;
}

/**
 * Posts the user's message (already trimmed and bounded by the form's schema), about one of their cards
 * when `cardId` is given: another user's card, or one that does not exist, is `notFound` and nothing is sent.
 */
export async function sendSupportMessage(
  deps: SupportDeps,
  userId: string,
  text: string,
  cardId: string | null,
): Promise<{ kind: "ok" } | { kind: "notFound" } | { kind: "unavailable" }> {
  if (deps.supportChat.kind !== "portal") return { kind: "unavailable" };
  if (cardId !== null && !(await getCardDetail(deps.db, userId, cardId))) return { kind: "notFound" };
  await deps.supportChat.send(userId, text, cardId === null ? null : `card:${cardId}`);
  return { kind: "ok" };
}

/** The card a conversation is opened about, if it is the user's: its label's parts, or null. */
export async function supportCardContext(
  db: DB,
  userId: string,
  cardId: string,
): Promise<{ id: string; type: "virtual" | "physical"; lastFour: string } | null> {
  const card = await getCardDetail(db, userId, cardId);
  return card ? { id: card.id, type: card.type, lastFour: card.lastFour } : null;
}
