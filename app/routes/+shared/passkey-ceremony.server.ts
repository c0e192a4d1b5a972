import { randomBytes } from "node:crypto";
import type { PasskeyRefusal } from "~/.server/services/passkeys";
import { commitSession, getSession } from "~/routes/+shared/request.server";
import { frenchWords } from "~/i18n/words.server";

/** One feature's passkey ceremony (sign in, second factor, reveal, add a passkey): the service calls it makes. */
export interface PasskeyRoute {
  /** Makes this ceremony's WebAuthn options with the binding kept in the session; null: nothing to use (404 `passkeys.errors.none`). */
  options(binding: string): Promise<object | null>;
  /** Checks the browser's answer: a refusal (worded here), or the feature's own redirect once right — as CodeStep's `verified()` (sign in, grant the reveal, …). */
  verify(binding: string, answer: unknown): Promise<PasskeyRefusal | Response>;
}

/** The browser's answer is a few hundred bytes; anything near this is not an authenticator's. */
export const PASSKEY_ANSWER_MAX = 16 * 1024;

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * The one protocol of the passkey resource routes (Contract P2, decision 0061), whatever the feature:
 * `step=options` stores a new random binding in the session and answers the service's options;
 * `step=verify` takes the browser's `answer` (JSON, at most 16 KB) and answers `{ to }`, the feature's
 * redirect with its own cookies (a fresh signed-in session, a flash), or `{ error }`, a catalogue key of
 * `passkeys.errors.*` (400; 429 with `retryAt` when decision 0014's guesses are spent). Posts only, forms
 * only, from this site only: server/security.ts refuses the rest before any route runs, as for every form.
 * The feature's logic stays in `route`; nothing here knows who signs in or what is revealed.
 */
export async function passkeyCeremony(request: Request, route: PasskeyRoute): Promise<Response> {
  const form = await request.formData();
  const step = form.get("step");
  if (step !== "options" && step !== "verify") return unknownCeremony();
  try {
    return step === "options" ? await optionsStep(request, route) : await verifyStep(request, route, form);
  } catch (thrown) {
    // A feature's guard leaving for another page (the waiting sign-in expired, the card is gone): the
    // button follows it as it follows a success.
    if (thrown instanceof Response && isRedirect(thrown)) return followed(thrown);
    throw thrown;
  }
}

async function optionsStep(request: Request, route: PasskeyRoute): Promise<Response> {
  const session = await getSession(request);
  const binding = randomBytes(32).toString("base64url");
  const options = await route.options(binding);
  if (!options) return Response.json({ error: "passkeys.errors.none" }, { status: 404, headers: NO_STORE });
  session.set("passkeyBinding", binding);
  return Response.json({ options }, { headers: { ...NO_STORE, "Set-Cookie": await commitSession(session) } });
}

async function verifyStep(request: Request, route: PasskeyRoute, form: FormData): Promise<Response> {
  const session = await getSession(request);
  // The binding serves one answer: after a refusal the button asks for new options (a new challenge). The
  // session is the request's one (getSession), so a feature committing it after a right answer spends it too.
  const binding = session.get("passkeyBinding");
  session.unset("passkeyBinding");
  const answer = answerOf(form.get("answer"));
  const outcome: PasskeyRefusal | Response =
    answer === undefined ? { kind: "invalid" } : binding ? await route.verify(binding, answer) : { kind: "challenge" };
  if (outcome instanceof Response) return isRedirect(outcome) ? followed(outcome) : outcome;
  const headers = { ...NO_STORE, "Set-Cookie": await commitSession(session) };
  if (outcome.kind === "locked") {
    const refused = { error: "passkeys.errors.locked", retryAt: outcome.retryAt.toISOString() };
    return Response.json(refused, { status: 429, headers });
  }
  return Response.json({ error: `passkeys.errors.${outcome.kind}` }, { status: 400, headers });
}

/**
 * A post no ceremony knows (no `step` or another one, a feature's unknown `for`): 400 as an unknown intent is
 * everywhere, as JSON since the button reads JSON, with the error page's French words for whoever reads it
 * without the page (spec 000 §1).
 */
export function unknownCeremony(): Response {
  const message = frenchWords("errors.unknownIntent");
  return Response.json({ error: "errors.unknownIntent", message }, { status: 400, headers: NO_STORE });
}

/** The browser's answer, parsed: undefined when missing, too long or not JSON. */
function answerOf(value: FormDataEntryValue | null): unknown {
  if (typeof value !== "string" || value.length === 0 || value.length > PASSKEY_ANSWER_MAX) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

function isRedirect(response: Response): boolean {
  return response.status >= 300 && response.status < 400 && response.headers.has("Location");
}

/**
 * A feature's redirect as JSON the button follows with React Router's navigate: its Location as `to`,
 * and its Set-Cookie kept (the fresh session of a sign-in, a flash message).
 */
function followed(response: Response): Response {
  const headers = new Headers(NO_STORE);
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return Response.json({ to: response.headers.get("Location") }, { headers });
}
