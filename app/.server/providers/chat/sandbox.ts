import type { DB } from "../../db";
import { newId, nowIso } from "../../ids";
import { SANDBOX_ACKNOWLEDGEMENT, type ChatMessage, type SupportChat } from "./port";

/**
 * The sandbox support chat: a real conversation in the database (support_messages), each message of the
 * user answered at once by an automatic acknowledgement from "Support". Offline, for development and demos.
 */
export class SandboxSupportChat implements SupportChat {
  readonly name = "sandbox";
  readonly kind = "portal";
  constructor(private readonly db: DB) {}

  async messages(userId: string): Promise<ChatMessage[]> {
    const rows = await this.db
      .selectFrom("support_messages")
      .select(["id", "author", "body", "created_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    return rows.map((r) => ({ id: r.id, author: r.author, body: r.body, createdAt: r.created_at }));
  }

  async send(userId: string, text: string, context: string | null): Promise<void> {
    const at = nowIso();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("support_messages")
        .values({ id: newId("sup"), user_id: userId, author: "user", body: text, context, created_at: at })
        .execute();
      // Same instant, later id order is not guaranteed: the answer is stamped one millisecond after.
      await trx
        .insertInto("support_messages")
        .values({
          id: newId("sup"),
          user_id: userId,
          author: "support",
          body: SANDBOX_ACKNOWLEDGEMENT,
          context,
          created_at: new Date(Date.parse(at) + 1).toISOString(),
        })
        .execute();
    });
  }

  browserChat(): null {
    return null;
  }
}
