import webpush from "web-push";
import { isAllowedPushEndpoint } from "~/domain/push";
import type { DB } from "../../db";
import { newId } from "../../ids";
import type { Logger } from "../../logger";
import { forgetGonePushTarget, pushTargets, type PushTarget } from "../../services/push-subscriptions";
import type { PushMessage, PushSender } from "./port";

/** The VAPID identity of this server (decision 0063): the key pair the browsers subscribed with and its contact. */
export interface VapidIdentity {
  publicKey: string;
  privateKey: string;
  /** mailto: or https:, sent to the push services in every request's signed token. */
  subject: string;
}

export interface WebPushOptions {
  vapid: VapidIdentity;
  /** The push services' host suffixes (PUSH_SERVICE_HOSTS): nothing else is ever contacted. */
  allowedHosts: readonly string[];
  logger: Logger;
  /** How long one push service may take to answer. */
  timeoutMs?: number;
  /** How many devices are sent to at once. */
  concurrency?: number;
}

/** A push service that has not answered within this is given up on: a producer waits for its pushes. */
export const WEB_PUSH_TIMEOUT_MS = 3000;
/** Devices sent to at once: 20 (the limit) hanging devices hold a producer at most 3 × the timeout. */
export const WEB_PUSH_CONCURRENCY = 8;
/** How long a push service keeps a push for a device that is off: a day, after which it is stale news. */
const TIME_TO_LIVE_SECONDS = 24 * 60 * 60;
/** The payload's text is cut there, so that the encrypted body stays well under the 4 KB push services take. */
const TITLE_MAX_CHARS = 120;
const BODY_MAX_CHARS = 600;

/** What the service worker receives (public/sw.js): the notification's title, body, the page it opens, its tag. */
export interface PushPayload {
  title: string;
  body: string;
  path: string | null;
  /** Notifications about the same page replace each other (its path); one without a page has its own. */
  tag: string;
}

export function pushPayload(message: PushMessage): PushPayload {
  return {
    title: cut(message.title, TITLE_MAX_CHARS),
    body: cut(message.body, BODY_MAX_CHARS),
    path: message.path,
    tag: message.path ?? newId("push"),
  };
}

/**
 * Web Push (RFC 8030, 8291, 8292) to every browser the person subscribed: the payload is encrypted for each
 * subscription (aes128gcm) and signed with the VAPID key by the `web-push` library; the request itself is sent
 * here with fetch (no redirect followed, a short timeout), only to endpoints of the allowed push services,
 * checked again now (the list may have shrunk since the subscription was saved). A 404 or 410 means the
 * subscription is gone: it is forgotten. Nothing is thrown to the producer: a notification stands even when a
 * device cannot be reached. Logs name the push service's host and the status, never the endpoint's path (the
 * subscription's secret) nor anything of the person.
 */
export class WebPushSender implements PushSender {
  readonly name = "web-push";
  private readonly timeoutMs: number;
  private readonly concurrency: number;

  constructor(
    private readonly db: DB,
    private readonly options: WebPushOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? WEB_PUSH_TIMEOUT_MS;
    this.concurrency = options.concurrency ?? WEB_PUSH_CONCURRENCY;
  }

  async send(message: PushMessage): Promise<void> {
    let targets: PushTarget[];
    try {
      targets = await pushTargets(this.db, message.userId);
    } catch (err) {
      this.options.logger.error("push subscriptions could not be read", { err: errorName(err) });
      return;
    }
    const payload = JSON.stringify(pushPayload(message));
    await eachAtMost(targets, this.concurrency, (target) => this.deliver(target, payload));
  }

  private async deliver(target: PushTarget, payload: string): Promise<void> {
    const { logger, allowedHosts, vapid } = this.options;
    const service = serviceOf(target.endpoint);
    if (!isAllowedPushEndpoint(target.endpoint, allowedHosts)) {
      logger.warn("push not sent: the endpoint is not one of the allowed push services", { service });
      return;
    }
    try {
      const request = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: target.keys }, payload, {
        vapidDetails: vapid,
        contentEncoding: "aes128gcm",
        TTL: TIME_TO_LIVE_SECONDS,
        urgency: "normal",
      });
      const response = await fetch(request.endpoint, {
        method: "POST",
        headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])),
        body: request.body ? new Uint8Array(request.body) : null,
        redirect: "manual",
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await response.body?.cancel();
      if (response.status === 404 || response.status === 410) {
        await forgetGonePushTarget(this.db, target);
        logger.info("push subscription gone: removed", { service, status: response.status });
      } else if (!response.ok) {
        logger.warn("push refused by its push service", { service, status: response.status });
      }
    } catch (err) {
      logger.warn("push not delivered", { service, err: errorName(err) });
    }
  }
}

/** Runs `work` on every item, at most `limit` at a time; each one's failure is its own (work never throws here). */
async function eachAtMost<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** The push service's host (its path is the subscription's secret and is never logged). */
function serviceOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return "invalid";
  }
}

/** What failed, without the message: a network error's text may repeat the address it tried. */
function errorName(err: unknown): string {
  if (!(err instanceof Error)) return "unknown";
  const cause = (err as Error & { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === "string" ? `${err.name}:${cause.code}` : err.name;
}

/** At most `max` characters (whole code points), with an ellipsis when cut. */
function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}
