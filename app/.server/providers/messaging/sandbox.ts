import type { DB } from "../../db";
import { newId, nowIso } from "../../ids";
import type { Messenger, OutgoingMessage } from "./port";

/**
 * The instant a message is kept: now, or just after the previous one of this process when both fall in the same
 * millisecond, so that "newest first" (/dev/outbox, and the tests reading the last code sent) is the order sent.
 */
let lastStamp = 0;
function outboxStamp(): string {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return nowIso(new Date(lastStamp));
}

/** Keeps every message in the outbox table; /dev/outbox shows them (sandbox mode only). */
export class SandboxMessenger implements Messenger {
  readonly name = "sandbox";
  constructor(private readonly db: DB) {}

  async send(message: OutgoingMessage): Promise<void> {
    await this.db
      .insertInto("outbox")
      .values({
        id: newId("msg"),
        channel: message.channel,
        recipient: message.to,
        subject: message.subject,
        body: message.text,
        created_at: outboxStamp(),
      })
      .execute();
  }
}

export interface OutboxEntry {
  id: string;
  channel: string;
  recipient: string;
  subject: string;
  body: string;
  createdAt: string;
}

export async function listOutbox(db: DB, limit = 50): Promise<OutboxEntry[]> {
  const rows = await db
    .selectFrom("outbox")
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    recipient: r.recipient,
    subject: r.subject,
    body: r.body,
    createdAt: r.created_at,
  }));
}
