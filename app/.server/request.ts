import { data, redirect, type RouterContextProvider } from "react-router";
import { requestInfoContext } from "~/context";
import { getPlatform, type Platform } from "./platform";
import { createDatabaseSessionStorage, type FlashMessage, type PortalSession, type PortalSessionStorage } from "./session";

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

export async function getSession(request: Request): Promise<PortalSession> {
  return (await sessionStorage()).getSession(request.headers.get("Cookie"));
}

export async function commitSession(session: PortalSession): Promise<string> {
  return (await sessionStorage()).commitSession(session);
}

/** Post-redirect-get with a message shown once on the next page. */
export async function redirectWithFlash(request: Request, to: string, flash: FlashMessage): Promise<Response> {
  const session = await getSession(request);
  session.flash("flash", flash);
  return redirect(to, { headers: { "Set-Cookie": await commitSession(session) } });
}

export function nonceOf(context: Readonly<RouterContextProvider>): string {
  return context.get(requestInfoContext).nonce;
}

/** A 400 answer that keeps the user on the page with their values and the errors. */
export function badRequest<T>(body: T, init?: ResponseInit) {
  return data(body, { ...init, status: 400 });
}
