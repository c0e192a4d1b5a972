import { data, type RouterContextProvider } from "react-router";
import { requestInfoContext } from "~/context";
import { getPlatform, type Platform } from "~/.server/platform";
import { internalRedirect, internalRedirectDocument, type InternalTarget } from "~/routes/+shared/redirects.server";
import {
  createDatabaseSessionStorage,
  type FlashMessage,
  type PortalSession,
  type PortalSessionStorage,
} from "~/.server/session";

const storages = new WeakMap<Platform, PortalSessionStorage>();

export async function sessionStorage(): Promise<PortalSessionStorage> {
  const platform = await getPlatform();
  let storage = storages.get(platform);
  if (!storage) {
    storage = createDatabaseSessionStorage(platform.db, platform.env);
    storages.set(platform, storage);
  }
  return storage;
}

const sessionsByRequest = new WeakMap<Request, Promise<PortalSession>>();

/**
 * The session of this request. Read once per request (the cookie's signature check and the database
 * read are the costly part), and shared by its middleware, loaders and action, so they all see the
 * same changes.
 */
export function getSession(request: Request): Promise<PortalSession> {
  let session = sessionsByRequest.get(request);
  if (!session) {
    session = sessionStorage().then((storage) => storage.getSession(request.headers.get("Cookie")));
    sessionsByRequest.set(request, session);
  }
  return session;
}

export async function commitSession(session: PortalSession): Promise<string> {
  return (await sessionStorage()).commitSession(session);
}

/**
 * Post-redirect-get with a message shown once on the next page; `reloadDocument`: that page is loaded as a
 * whole new document even with JavaScript (`internalRedirectDocument`).
 */
export async function redirectWithFlash(
  request: Request,
  to: InternalTarget,
  flash: FlashMessage,
  { reloadDocument = false }: { reloadDocument?: boolean } = {},
): Promise<Response> {
  const session = await getSession(request);
  session.flash("flash", flash);
  const init = { headers: { "Set-Cookie": await commitSession(session) } };
  return reloadDocument ? internalRedirectDocument(to, init) : internalRedirect(to, init);
}

export function nonceOf(context: Readonly<RouterContextProvider>): string {
  return context.get(requestInfoContext).nonce;
}

/**
 * A request refused on purpose, to throw from a loader, action or middleware: the error page says
 * `message` (a catalogue key) in the person's language, with this status.
 */
export function refusal(status: 400 | 403 | 404 | 409, message: string) {
  return data({ message }, { status });
}

/** The token and address of an e-mailed link (`/activate/:token?email=`, `/reset-password/:token?email=`), cut to sane lengths. */
export function emailedLinkOf(request: Request, token: string | undefined) {
  return {
    token: (token ?? "").slice(0, 100),
    email: (new URL(request.url).searchParams.get("email") ?? "").slice(0, 254),
  };
}
