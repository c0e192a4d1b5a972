import type { DB } from "../../db";
import { newId, nowIso } from "../../ids";
import type { PushMessage, PushSender } from "./port";

/** Keeps every push in the outbox table (channel "push", the person's id as recipient); /dev/outbox shows them. */
export class SandboxPushSender implements PushSender {
  readonly name = "sandbox";
  constructor(private readonly db: DB) {}

  async send(message: PushMessage): Promise<void> {
    await this.db
      .insertInto("outbox")
      .values({
        id: newId("msg"),
        channel: "push",
        recipient: message.userId,
        subject: message.title,
        body: message.path ? `${message.body}\n${message.path}` : message.body,
        created_at: nowIso(),
      })
      .execute();
  }
}
