import type { DB } from "../../db";
import { newId, nowIso } from "../../ids";
import type { Messenger, OutgoingMessage } from "./port";

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
        created_at: nowIso(),
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
