import type { PortalSession } from "~/.server/session";
import { internalPath } from "~/routes/+shared/redirects.server";

/**
 * Adding a passkey needs a fresh confirmation of the account first (issue 32 item 1): its one-time code, or
 * one of its passkeys. Once confirmed, the session holds an enrolment for this user for 10 minutes; the
 * registration's options are made only while it lives, and the registration spends it. A session whose
 * person changed (another sign-in in the same browser) finds another user's enrolment: not theirs.
 */
export const ENROLMENT_TTL_MS = 10 * 60 * 1000;

/** The add panel's first step (confirm), and its later ones. */
export const ADD_START = "/settings/security/passkeys/new" as const;
export const addStepPath = (step: "code" | "add") => internalPath(ADD_START, {}, { search: { step } });

/** Grants the enrolment in this session (committed by the caller's redirect). */
export function grantEnrolment(session: PortalSession, userId: string, now = new Date()): void {
  session.set("passkeyEnrolment", { userId, expiresAt: new Date(now.getTime() + ENROLMENT_TTL_MS).toISOString() });
}

/**
 * What this session holds for `userId`: `live` (a passkey may be added), `expired` (there was one, too old
 * now: the page says so) or `none` (never confirmed, already spent, or another user's).
 */
export function enrolmentOf(session: PortalSession, userId: string, now = new Date()): "live" | "expired" | "none" {
  const enrolment = session.get("passkeyEnrolment");
  if (!enrolment || enrolment.userId !== userId) return "none";
  return enrolment.expiresAt > now.toISOString() ? "live" : "expired";
}

/** Spends the enrolment: one confirmation, one passkey added. */
export function spendEnrolment(session: PortalSession): void {
  session.unset("passkeyEnrolment");
}
