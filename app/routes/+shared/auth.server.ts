import { createContext, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { formatTime } from "~/domain/dates";
import { loginSchema } from "~/domain/schemas";
import { parseForm } from "~/routes/+shared/forms.server";
import { passwordLockedMessage } from "~/routes/+shared/guess-messages.server";
import { getPlatform } from "~/.server/platform";
import { commitSession, getSession, redirectWithFlash, sessionStorage } from "~/routes/+shared/request.server";
import { checkCredentials, codeDestination, getAccount, isOnboarded, type Account } from "~/.server/services/accounts";
import { listCards, type CardListItem } from "~/.server/services/cards";
import type { DB } from "~/.server/db";
import { issueCode, withdrawCodes, type CodeSubject, type IssueResult } from "~/.server/services/codes";
import { passwordChangeRequired, mustSetUpMfa } from "~/.server/services/security";
import type { FlashMessage, PendingLogin, PortalSession } from "~/.server/session";
import { documentWhenLight, lightVersionChosenContext } from "~/routes/+shared/light-version.server";
import { accountConsentContext } from "~/routes/+shared/consent.server";

/** What a failed password step sends back to the form: the route answers it with `refuse` (400). */
export class LoginRejected extends Error {
  constructor(
    readonly submission: ReturnType<typeof parseForm>,
    readonly formErrors?: string[],
  ) {
    super("login rejected");
  }
}

/** The password never comes back in the login form's reply. */
export const LOGIN_SECRETS = ["password"];

export const authenticator = new Authenticator<string>();
authenticator.use(
  new FormStrategy(async ({ form }) => {
    const submission = parseForm(form, loginSchema);
    if (submission.status !== "success") throw new LoginRejected(submission);
    const { db } = await getPlatform();
    const result = await checkCredentials(db, submission.value.email, submission.value.password);
    switch (result.kind) {
      case "ok":
        return result.userId;
      // Too many wrong passwords for this e-mail, known or not: even the right one waits (decision 0014).
      case "locked":
        throw new LoginRejected(submission, [passwordLockedMessage(result.retryAt)]);
      // Only with the right password: whoever knows it may learn that the account is under review (001 §1).
      case "disabled":
        throw new LoginRejected(submission, ["errors.accountDisabled"]);
      // Unknown e-mail and wrong password get the same words (no account enumeration).
      case "invalid":
        throw new LoginRejected(submission, ["errors.credentials"]);
    }
  }),
  "password",
);

/**
 * How long a sign-in waits, after a right password, for its code (or the forced password change). Kept
 * at 15 minutes although a code lives an hour (CODE_TTL_MS, other purposes): a half-open sign-in should
 * not linger on a shared computer. What the person is told follows this, not the code's life: the code
 * page and message say "before HH:MM:SS", the pending sign-in's own end (issue 13, finding 12).
 */
export const PENDING_LOGIN_TTL_MS = 15 * 60 * 1000;
export const PENDING_LOGIN_MINUTES = PENDING_LOGIN_TTL_MS / 60_000;

/** The signed-in account for this request; set by requireAccount on protected routes. */
export const accountContext = createContext<Account>();

/**
 * The signed-in person's cards, read once per request (issue 35 §3): the onboarding check of `requireAccount`, the
 * layout's navigation and the card page (its ownership check and its « next card ») share one listing.
 */
const cardsContext = createContext<Promise<CardListItem[]> | null>(null);

/** This request's listing of the person's cards: read on first use, then the same answer for every part of the page. */
export function cardsOf(context: Readonly<RouterContextProvider>, db: DB, userId: string): Promise<CardListItem[]> {
  let cards = context.get(cardsContext);
  if (!cards) {
    cards = listCards(db, userId);
    context.set(cardsContext, cards);
  }
  return cards;
}

/** Lists the person's cards again for the rest of the request: a card was just recorded (the layout's sync). */
export function relistCards(context: Readonly<RouterContextProvider>, db: DB, userId: string): void {
  context.set(cardsContext, listCards(db, userId));
}

export async function currentUserId(request: Request): Promise<string | null> {
  if (!request.headers.get("Cookie")) return null;
  const session = await getSession(request);
  return session.get("userId") ?? null;
}

/** Starts a fresh session (a new id, so a planted id is useless) holding this user. */
export async function signIn(
  request: Request,
  userId: string,
  redirectTo: string,
  flash?: FlashMessage,
): Promise<Response> {
  const storage = await sessionStorage();
  const old = await getSession(request);
  await storage.destroySession(old);
  const fresh = await storage.getSession();
  fresh.set("userId", userId);
  if (flash) fresh.flash("flash", flash);
  return redirect(redirectTo, { headers: { "Set-Cookie": await storage.commitSession(fresh) } });
}

/**
 * A sign-in waiting in the session for its next step (the code, or the forced password change), or a
 * redirect to /login: none there, or stale (then said so).
 */
export async function waitingSignIn(
  session: PortalSession,
  step: "pendingLogin" | "pendingPasswordChange",
): Promise<PendingLogin> {
  const pending = session.get(step);
  if (pending && pending.expiresAt > new Date().toISOString()) return pending;
  if (!pending) throw redirect("/login");
  session.unset(step);
  session.flash("flash", { kind: "error", message: "errors.sessionExpired" });
  throw redirect("/login", { headers: { "Set-Cookie": await commitSession(session) } });
}

/**
 * The last step of every sign-in (after the password, and the code when MFA is on): an account given
 * a temporary password chooses its own first, on `/force-change-password`, before any session is opened.
 */
export async function completeSignIn(request: Request, userId: string, redirectTo: string): Promise<Response> {
  const { db } = await getPlatform();
  if (!(await passwordChangeRequired(db, userId))) return signIn(request, userId, redirectTo);
  const session = await getSession(request);
  session.unset("userId");
  session.unset("pendingLogin");
  session.set("pendingPasswordChange", {
    userId,
    redirectTo,
    expiresAt: new Date(Date.now() + PENDING_LOGIN_TTL_MS).toISOString(),
  });
  return redirect("/force-change-password", { headers: { "Set-Cookie": await commitSession(session) } });
}

export async function signOut(request: Request, to = "/login"): Promise<Response> {
  const storage = await sessionStorage();
  const session = await getSession(request);
  await storage.destroySession(session);
  // A new anonymous session only to carry the goodbye message.
  const fresh = await storage.getSession();
  fresh.flash("flash", { kind: "success", message: "auth.signedOut" });
  return redirect(to, { headers: { "Set-Cookie": await storage.commitSession(fresh) } });
}

/** The codes of a sign-in: the account's own (decision 0022). */
export function signInSubject(userId: string): CodeSubject {
  return { userId, purpose: "signIn", target: userId };
}

/** Sends the second-factor code for a pending sign-in (by the user's preferred channel). */
export async function sendLoginCode(
  session: PortalSession,
  t: (key: string, vars?: Record<string, unknown>) => string,
): Promise<IssueResult | null> {
  const pending = session.get("pendingLogin");
  if (!pending) return null;
  const { db, messenger } = await getPlatform();
  const account = await getAccount(db, pending.userId);
  if (!account) return null;
  const { channel, destination } = codeDestination(account);
  return issueCode(db, messenger, {
    subject: signInSubject(account.id),
    channel,
    destination,
    message: {
      subject: t("auth.code.messageSubject"),
      // The code is good only while the sign-in waits: its end, not the code's hour, is what counts.
      text: (code) => t("auth.code.messageText", { code, time: formatTime(pending.expiresAt) }),
      usefulUntil: new Date(pending.expiresAt),
    },
  });
}

/** Gives up a sign-in waiting for its code: the code is withdrawn, the person is back at /login. */
export async function cancelWaitingSignIn(session: PortalSession): Promise<Response> {
  const pending = session.get("pendingLogin");
  if (pending) await withdrawCodes((await getPlatform()).db, signInSubject(pending.userId));
  session.unset("pendingLogin");
  return redirect("/login", { headers: { "Set-Cookie": await commitSession(session) } });
}

export function loginUrl(request: Request): string {
  const url = new URL(request.url);
  const here = url.pathname + url.search;
  return here === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(here)}`;
}

/**
 * The signed-in, active account, or a redirect to sign-in (a disabled account's session loses its user).
 * A form sent after the session ended is told so (spec 001 §8: 401 → "session expirée").
 */
async function signedInAccount(request: Request): Promise<Account> {
  const userId = await currentUserId(request);
  if (!userId) {
    if (request.method === "GET" || request.method === "HEAD") throw redirect(loginUrl(request));
    throw await redirectWithFlash(request, "/login", { kind: "error", message: "errors.sessionExpired" });
  }
  const { db } = await getPlatform();
  const account = await getAccount(db, userId);
  if (!account) {
    const session = await getSession(request);
    session.unset("userId");
    throw redirect(loginUrl(request), { headers: { "Set-Cookie": await commitSession(session) } });
  }
  return account;
}

/** What the signed-in layouts' middleware gives their pages: the account and its choice of the light version. */
function enterAs(account: Account, { request, context, url }: Parameters<MiddlewareFunction<Response>>[0]): void {
  context.set(accountContext, account);
  context.set(lightVersionChosenContext, account.lightVersion);
  context.set(accountConsentContext, account.consentDecided);
  documentWhenLight(request, url, context);
}

/**
 * Protected layout middleware: signed in, account active, onboarded (else /onboarding), and with a
 * second factor unless exempt (else held on /secure-account, spec 001 §4 "MFA-required").
 */
export const requireAccount: MiddlewareFunction<Response> = async (args, next) => {
  const account = await signedInAccount(args.request);
  const { db } = await getPlatform();
  if (!(await isOnboarded(db, account, () => cardsOf(args.context, db, account.id)))) throw redirect("/onboarding");
  if (mustSetUpMfa(account)) throw redirect("/secure-account");
  enterAs(account, args);
  return next();
};

/** Onboarding's middleware: signed in and active, onboarded or not (spec 001 §2.3). */
export const requireSignedIn: MiddlewareFunction<Response> = async (args, next) => {
  enterAs(await signedInAccount(args.request), args);
  return next();
};
