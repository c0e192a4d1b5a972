import type { Route } from "./+types/login-passkey";
import { getPlatform } from "~/.server/platform";
import { authenticationOptions, finishAuthentication, type PasskeyCeremony } from "~/.server/services/passkeys";
import { passkeySignInState } from "~/.server/services/security";
import { withdrawCodes } from "~/.server/services/codes";
import { safeRedirectPath } from "~/.server/session";
import { completeSignIn, signInSubject, waitingSignIn } from "~/routes/+shared/auth.server";
import { adoptBrowserConsent } from "~/routes/+shared/consent.server";
import { passkeyCeremony, unknownCeremony, type PasskeyRoute } from "~/routes/+shared/passkey-ceremony.server";
import { getSession } from "~/routes/+shared/request.server";
import { internalRedirect } from "~/routes/+shared/redirects.server";

/**
 * Signing in with a passkey (issue 32 item 2, decision 0061), the ceremony of Contract P2 posted by
 * PasskeyButton. `for=signIn`, from /login: no e-mail is typed, the passkey found on the device names
 * the account (a discoverable credential). `for=secondFactor`, from /login/code: the sign-in waiting in
 * the session after its password, checked with one of that account's passkeys instead of a code. Both end
 * as a code does: the banner's consent adopted (decision 0059), then completeSignIn.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.clone().formData();
  const use = form.get("for");
  if (use !== "signIn" && use !== "secondFactor") return unknownCeremony();
  return passkeyCeremony(
    request,
    use === "signIn" ? signInRoute(request, form.get("redirectTo")) : secondFactorRoute(request),
  );
}

/** The passkey alone: the account is the credential's owner, refused as the password step refuses it. */
function signInRoute(request: Request, redirectTo: FormDataEntryValue | null): PasskeyRoute {
  const ceremony: PasskeyCeremony = { purpose: "signIn" };
  return {
    async options(binding) {
      const { db, relyingParty } = await getPlatform();
      return authenticationOptions(db, relyingParty, ceremony, binding);
    },
    async verify(binding, answer) {
      const { db, relyingParty } = await getPlatform();
      const result = await finishAuthentication(db, relyingParty, ceremony, binding, answer);
      if (result.kind !== "ok") return result;
      const state = await passkeySignInState(db, result.userId);
      // Under review (spec 001 §1): said to whoever proves the account is theirs, as after a right password.
      if (state === "disabled")
        return Response.json(
          { error: "errors.accountDisabled" },
          { status: 403, headers: { "Cache-Control": "no-store" } },
        );
      if (state !== "active") return { kind: "unknownCredential" };
      await adoptBrowserConsent(db, request, result.userId);
      return completeSignIn(request, result.userId, safeRedirectPath(redirectTo));
    },
  };
}

/**
 * The second factor of the sign-in waiting after its password: one of that account's passkeys. No sign-in
 * waiting (or a stale one) leaves for /login, said so there, as the code step does.
 */
function secondFactorRoute(request: Request): PasskeyRoute {
  const waiting = async () => waitingSignIn(await getSession(request), "pendingLogin");
  const ceremonyOf = (userId: string): PasskeyCeremony => ({ purpose: "secondFactor", userId });
  return {
    async options(binding) {
      const pending = await waiting();
      const { db, relyingParty } = await getPlatform();
      return authenticationOptions(db, relyingParty, ceremonyOf(pending.userId), binding);
    },
    async verify(binding, answer) {
      const pending = await waiting();
      const { db, relyingParty } = await getPlatform();
      const result = await finishAuthentication(db, relyingParty, ceremonyOf(pending.userId), binding, answer);
      if (result.kind !== "ok") return result;
      // A code sent for this sign-in (the person asked for one, then used the passkey) is good for nothing now.
      await withdrawCodes(db, signInSubject(pending.userId));
      await adoptBrowserConsent(db, request, pending.userId);
      return completeSignIn(request, pending.userId, pending.redirectTo);
    },
  };
}

/** Opened as a page: the sign-in. */
export function loader() {
  return internalRedirect("/login");
}
