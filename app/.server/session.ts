import { randomBytes } from "node:crypto";
import { createCookie, createSessionStorage, type Cookie, type Session, type SessionStorage } from "react-router";
import type { DB } from "./db";
import type { Env } from "./env";
import { nowIso } from "./ids";
import { isSignedInPage } from "~/routes/+shared/redirects.server";
import { hashSecret } from "./tokens";
import type { TagEvent } from "~/domain/tag-events";
import { prepared, type Argument } from "./db/prepared";

export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

export interface FlashMessage {
  kind: "success" | "error" | "info";
  message: string;
  /** The tag manager's event the action recorded (decision 0031): the next page copies it to the dataLayer. */
  tagEvent?: TagEvent;
}

/** A sign-in waiting for its second factor. */
export interface PendingLogin {
  userId: string;
  redirectTo: string;
  expiresAt: string;
  /**
   * The second factor it waits for (decision 0061): `passkey` when the account has one and the browser
   * said it can use it (no code was sent), else `code`, the default.
   */
  method?: "passkey" | "code";
}

/** Granted by a valid one-time code: one reveal of this card's details or PIN, for a few minutes. */
export interface RevealGrant {
  cardId: string;
  kind: "details" | "pin";
  expiresAt: string;
}

export interface SessionData {
  userId: string;
  pendingLogin: PendingLogin;
  /** A sign-in with a temporary password, waiting for the person's own (`/force-change-password`). */
  pendingPasswordChange: PendingLogin;
  revealGrant: RevealGrant;
  /**
   * A fresh confirmation of the account (its code, or one of its passkeys) allowing a passkey to be added for
   * a few minutes (issue 32 item 1; routes/settings/passkey-new.tsx); spent by the registration.
   */
  passkeyEnrolment: { userId: string; expiresAt: string };
  /** The random string that ties a passkey ceremony's challenge to this session (Contract P2, decision 0061). */
  passkeyBinding: string;
}
export interface SessionFlashData {
  flash: FlashMessage;
}
export type PortalSession = Session<SessionData, SessionFlashData>;
export type PortalSessionStorage = SessionStorage<SessionData, SessionFlashData>;

/** The session cookie: signed with SESSION_SECRET, `__Host-` and secure in production. */
export function sessionCookie(env: Pick<Env, "APP_MODE" | "sessionSecrets">): Cookie {
  const secure = env.APP_MODE === "production";
  return rememberingSignatures(
    createCookie(secure ? "__Host-session" : "session", {
      httpOnly: true,
      sameSite: "lax",
      secure,
      path: "/",
      secrets: env.sessionSecrets,
      maxAge: SESSION_MAX_AGE_SECONDS,
    }),
  );
}

const SIGNATURES_KEPT = 1000;

/**
 * Checking a cookie's signature (an HMAC through Web Crypto) was 3 % of a signed-in page's time
 * (decision 0039): the answer for a `Cookie` header already checked is kept, for the last thousand
 * headers. Only correctly signed session ids are kept; anything else is checked every time.
 */
function rememberingSignatures(cookie: Cookie): Cookie {
  const checked = new Map<string, string>();
  const parse: Cookie["parse"] = async (header, options) => {
    if (!header || options) return cookie.parse(header, options);
    const known = checked.get(header);
    if (known !== undefined) return known;
    const value: unknown = await cookie.parse(header);
    if (typeof value === "string") {
      if (checked.size >= SIGNATURES_KEPT) checked.delete(checked.keys().next().value!);
      checked.set(header, value);
    }
    return value;
  };
  return {
    get name() {
      return cookie.name;
    },
    get isSigned() {
      return cookie.isSigned;
    },
    get expires() {
      return cookie.expires;
    },
    parse,
    serialize: (value, options) => cookie.serialize(value, options),
  };
}

/**
 * For the rate limits (decision 0014): the hash of this request's session id when its cookie is
 * correctly signed and the session is signed in and not expired; null otherwise (no cookie, a forged
 * or stale one, or a session still waiting for a code or a new password — those are anonymous).
 */
export async function signedInSessionKey(
  db: DB,
  cookie: Cookie,
  cookieHeader: string | undefined | null,
): Promise<string | null> {
  if (!cookieHeader || !cookieHeader.includes(cookie.name)) return null;
  let id: unknown;
  try {
    id = await cookie.parse(cookieHeader);
  } catch {
    return null;
  }
  if (typeof id !== "string" || id.length === 0 || id.length > 100) return null;
  const idHash = hashSecret(id);
  const row = await db
    .selectFrom("sessions")
    .select(["user_id", "expires_at"])
    .where("id_hash", "=", idHash)
    .executeTakeFirst();
  return row?.user_id && row.expires_at > nowIso() ? idHash : null;
}

const sessionData = prepared((db, arg: Argument<{ idHash: string }>) =>
  db.selectFrom("sessions").select(["data", "expires_at"]).where("id_hash", "=", arg("idHash")),
);

/**
 * Sessions live in the database; the signed cookie holds only a random id, and the table
 * only its hash. Expiry is fixed at sign-in (7 days), not sliding.
 */
export function createDatabaseSessionStorage(
  db: DB,
  env: Pick<Env, "APP_MODE" | "sessionSecrets">,
): PortalSessionStorage {
  const cookie = sessionCookie(env);

  const expiryOf = (expires?: Date) => (expires ?? new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000)).toISOString();
  const userOf = (data: Partial<SessionData>) => (typeof data.userId === "string" ? data.userId : null);

  return createSessionStorage<SessionData, SessionFlashData>({
    cookie,
    async createData(data, expires) {
      const id = randomBytes(32).toString("base64url");
      await db
        .insertInto("sessions")
        .values({
          id_hash: hashSecret(id),
          user_id: userOf(data),
          data: JSON.stringify(data),
          expires_at: expiryOf(expires),
          created_at: nowIso(),
        })
        .execute();
      return id;
    },
    async readData(id) {
      if (typeof id !== "string" || id.length > 100) return null;
      const row = await sessionData.first(db, { idHash: hashSecret(id) });
      if (!row) return null;
      if (row.expires_at <= nowIso()) {
        await db.deleteFrom("sessions").where("id_hash", "=", hashSecret(id)).execute();
        return null;
      }
      try {
        return JSON.parse(row.data) as Partial<SessionData & SessionFlashData>;
      } catch {
        return null;
      }
    },
    // The expiry set at creation stands: committing a flash message must not extend a session.
    async updateData(id, data) {
      await db
        .updateTable("sessions")
        .set({ data: JSON.stringify(data), user_id: userOf(data) })
        .where("id_hash", "=", hashSecret(id))
        .execute();
    },
    async deleteData(id) {
      await db.deleteFrom("sessions").where("id_hash", "=", hashSecret(id)).execute();
    },
  });
}

const BASE = "http://portal.invalid";

/**
 * Where a sign-in leads back to: a page of the signed-in portal on this site, else the fallback.
 * The value is normalised before it is checked, never after: percent-encoded dots, slashes and
 * backslashes are decoded and dot segments resolved (`/.//evil`, `/%2e//evil` and `/cards/..//evil`
 * all become `//evil`), so what is checked is the path the browser will follow.
 */
export function safeRedirectPath(value: unknown, fallback = "/cards"): string {
  if (typeof value !== "string" || value.length > 2000 || !value.startsWith("/")) return fallback;
  const end = value.search(/[?#]/);
  const [path, rest] = end < 0 ? [value, ""] : [value.slice(0, end), value.slice(end)];
  const decoded = path.replace(/%2e/gi, ".").replace(/%2f/gi, "/").replace(/%5c/gi, "\\");
  // Control characters and backslashes let browsers read a path as another host.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(decoded + rest)) return fallback;
  let url: URL;
  try {
    url = new URL(decoded + rest, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE || url.pathname.startsWith("//") || !isSignedInPage(url.pathname)) return fallback;
  return url.pathname + url.search + url.hash;
}

/** Whether a reveal grant is for this card and kind, and still valid. */
export function grantsReveal(
  grant: RevealGrant | undefined,
  cardId: string,
  kind: RevealGrant["kind"],
  now = new Date(),
): grant is RevealGrant {
  return Boolean(grant && grant.cardId === cardId && grant.kind === kind && grant.expiresAt > now.toISOString());
}
