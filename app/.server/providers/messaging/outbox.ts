import type { DB } from "../../db";
import { newId } from "../../ids";
import type { Logger } from "../../logger";
import { RefusedMessageError, type Delivery, type Messenger, type OutgoingMessage } from "./port";

/**
 * The persistent outbox of e-mails and text messages (issue 18 §5, decision 0042; SMS: issue 33, decision 0062).
 * Every message is written to `mail_outbox` first (its `channel` says which), then handed to the transport (SMTP
 * for e-mails, the SMS gateway for text messages) at once; one that cannot leave stays there and is tried again
 * by the sender loop of any server process (10 s, 30 s, 1 min, 5 min, then every 15 min), until it leaves or its
 * time is up: the end of the code or link it carries (`expiresAt`), or a day. A process sending a message holds
 * it under a lease, taken by a conditional UPDATE, so two processes (or machines) on one database never send one
 * message at once. Sent or given up, its body is blanked at once and the row deleted a day later. A refusal that
 * will never succeed (RefusedMessageError: the gateway says the number cannot receive text messages) gives the
 * message up at once.
 */
export const RETRY_DELAYS_MS = [10_000, 30_000, 60_000, 5 * 60_000, 15 * 60_000] as const;
/** At most this long after it was written, a message nobody could send is given up. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;
/** How long a process may hold a message it is sending (well above the SMTP adapter's timeouts). */
export const LEASE_MS = 60_000;
/** How long a sent or given-up row (without its body) is kept, for diagnosis, before it is deleted. */
export const KEEP_FINISHED_MS = 24 * 60 * 60 * 1000;
/** How often the sender loop looks for messages due. */
export const SWEEP_INTERVAL_MS = 5_000;
const BATCH = 20;

export interface OutboxOptions {
  /** Hands a message over (ChannelMessenger: SMTP or the SMS gateway); throws when it cannot. Closed by `stop`. */
  transport: Messenger & { close?(): void };
  logger?: Logger;
  /** This process's name in the leases it takes (random by default). */
  owner?: string;
  /** The clock (tests move it). */
  now?: () => Date;
}

const iso = (at: Date) => at.toISOString();

/** The delay before the next attempt once `attempts` attempts failed. */
export function retryDelayMs(attempts: number): number {
  return RETRY_DELAYS_MS[Math.min(Math.max(attempts, 1), RETRY_DELAYS_MS.length) - 1]!;
}

/** The error's kind, short, for the row and the log: never the message's content. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return "unknown error";
  const code = (err as Error & { code?: unknown }).code;
  return `${typeof code === "string" ? `${code}: ` : ""}${err.message}`.slice(0, 200);
}

export class OutboxMessenger implements Messenger {
  readonly name: string;
  readonly owner: string;
  private readonly now: () => Date;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: DB,
    private readonly options: OutboxOptions,
  ) {
    this.name = options.transport.name;
    this.owner = options.owner ?? newId("sender");
    this.now = options.now ?? (() => new Date());
  }

  /**
   * Writes the message to the outbox, then tries it once: `queued` when it could not leave yet (or, past its time
   * already, was given up), `refused` when the gateway refused it for good (given up at once).
   */
  async send(message: OutgoingMessage): Promise<Delivery> {
    const now = this.now();
    const id = newId(message.channel === "sms" ? "sms" : "mail");
    const limit = now.getTime() + GIVE_UP_AFTER_MS;
    const giveUpAt = new Date(Math.min(message.expiresAt?.getTime() ?? limit, limit));
    // Leased to this process from the start: the sender loops leave it alone while this request tries it.
    await this.db
      .insertInto("mail_outbox")
      .values({
        id,
        channel: message.channel,
        recipient: message.to,
        subject: message.subject,
        body: message.text,
        status: "pending",
        attempts: 0,
        next_attempt_at: iso(now),
        give_up_at: iso(giveUpAt),
        lease_owner: this.owner,
        lease_until: iso(new Date(now.getTime() + LEASE_MS)),
        last_error: null,
        created_at: iso(now),
        finished_at: null,
      })
      .execute();
    return this.attempt(id);
  }

  /**
   * One pass of the sender loop: gives up what is past its time, deletes old finished rows, then claims and
   * sends the messages due (each claimed by one process only). Returns how many were sent.
   */
  async deliverDue(now = this.now()): Promise<number> {
    const at = iso(now);
    await this.db
      .updateTable("mail_outbox")
      .set({ status: "given_up", body: "", finished_at: at, lease_owner: null, lease_until: null })
      .where("status", "=", "pending")
      .where("give_up_at", "<=", at)
      .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", at)]))
      .execute();
    await this.db
      .deleteFrom("mail_outbox")
      .where("status", "!=", "pending")
      .where("finished_at", "<=", iso(new Date(now.getTime() - KEEP_FINISHED_MS)))
      .execute();
    const due = await this.db
      .selectFrom("mail_outbox")
      .select("id")
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", at)
      .where("give_up_at", ">", at)
      .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", at)]))
      .orderBy("next_attempt_at")
      .limit(BATCH)
      .execute();
    let sent = 0;
    for (const { id } of due) {
      if ((await this.claim(id, now)) && (await this.attempt(id)) === "sent") sent++;
    }
    return sent;
  }

  /** Takes the message for this process, unless another holds it or it is not due: true when taken. */
  private async claim(id: string, now: Date): Promise<boolean> {
    const at = iso(now);
    const result = await this.db
      .updateTable("mail_outbox")
      .set({ lease_owner: this.owner, lease_until: iso(new Date(now.getTime() + LEASE_MS)) })
      .where("id", "=", id)
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", at)
      .where("give_up_at", ">", at)
      .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", at)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Sends a message this process holds; records the outcome: sent, not yet (or past its time), or refused. */
  private async attempt(id: string): Promise<Delivery> {
    const row = await this.db
      .selectFrom("mail_outbox")
      .select(["channel", "recipient", "subject", "body", "attempts", "give_up_at"])
      .where("id", "=", id)
      .where("lease_owner", "=", this.owner)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (!row) return "queued";
    const attempts = row.attempts + 1;
    const what = row.channel === "sms" ? "text message" : "e-mail";
    try {
      await this.options.transport.send({
        channel: row.channel,
        to: row.recipient,
        subject: row.subject,
        text: row.body,
      });
    } catch (err) {
      const now = this.now();
      const next = new Date(now.getTime() + retryDelayMs(attempts));
      const refused = err instanceof RefusedMessageError;
      const givenUp = refused || iso(next) >= row.give_up_at;
      await this.db
        .updateTable("mail_outbox")
        .set({
          attempts,
          // "refused: …" tells the code page the number cannot receive it (mail-status.ts).
          last_error: refused ? `refused: ${describe(err)}` : describe(err),
          next_attempt_at: iso(next),
          lease_owner: null,
          lease_until: null,
          ...(givenUp ? { status: "given_up" as const, body: "", finished_at: iso(now) } : {}),
        })
        .where("id", "=", id)
        .where("lease_owner", "=", this.owner)
        .execute();
      this.options.logger?.warn(givenUp ? `${what} given up` : `${what} not sent yet, will retry`, {
        id,
        attempts,
        error: describe(err),
        ...(givenUp ? {} : { nextAttemptAt: iso(next) }),
      });
      return refused ? "refused" : "queued";
    }
    // Sent: the body (codes, links) goes at once.
    await this.db
      .updateTable("mail_outbox")
      .set({
        status: "sent",
        body: "",
        attempts,
        finished_at: iso(this.now()),
        lease_owner: null,
        lease_until: null,
        last_error: null,
      })
      .where("id", "=", id)
      .execute();
    if (attempts > 1) this.options.logger?.info(`${what} sent after retry`, { id, attempts });
    return "sent";
  }

  /** Starts the sender loop of this process (its timer does not keep the process alive). */
  start(intervalMs = SWEEP_INTERVAL_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), intervalMs);
    this.timer.unref();
  }

  private tick(): Promise<void> {
    this.running ??= this.deliverDue()
      .then(() => undefined)
      .catch((err: unknown) => this.options.logger?.error("outbox sweep failed", { error: describe(err) }))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /** Stops the loop, waits for the pass in flight (before the database closes) and closes the transport. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    this.options.transport.close?.();
  }
}
