import type { CDPSession, Page } from "@playwright/test";
import type { DB } from "../../app/.server/db";
import { savePasskey, type PasskeySummary } from "../../app/.server/services/passkeys";
import { newSoftCredential, passkeyRecord, privateKeyPkcs8, type SoftCredential } from "../support/soft-authenticator";

/**
 * Passkeys in journeys (issue 32): Chromium's virtual authenticator, driven through the DevTools protocol,
 * stands for the phone's own unlock. It is a platform authenticator (transport "internal") that keeps
 * discoverable credentials, verifies the person and answers every prompt by itself, so a journey clicks the
 * portal's passkey button and goes on. Its credentials are backup eligible and backed up, as a phone's synced
 * passkeys are. Only with JavaScript on: WebAuthn needs a script.
 */
export interface VirtualAuthenticator {
  session: CDPSession;
  authenticatorId: string;
}

/** What `WebAuthn.getCredentials` says of one credential (base64 ids, as the protocol writes binary). */
export interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  userHandle?: string;
  signCount: number;
}

const authenticators = new WeakMap<Page, Promise<VirtualAuthenticator>>();

/** The page's virtual authenticator, added on first use (one per page: the prompts of that page reach it). */
export function virtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  let made = authenticators.get(page);
  if (!made) {
    made = (async () => {
      const session = await page.context().newCDPSession(page);
      await session.send("WebAuthn.enable", { enableUI: false });
      const { authenticatorId } = await session.send("WebAuthn.addVirtualAuthenticator", {
        options: {
          protocol: "ctap2",
          ctap2Version: "ctap2_1",
          transport: "internal",
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
          defaultBackupEligibility: true,
          defaultBackupState: true,
        },
      });
      return { session, authenticatorId };
    })();
    authenticators.set(page, made);
  }
  return made;
}

/** Whether the authenticator verifies the person from now on (false: present only, as a key without its PIN). */
export async function setUserVerified(authenticator: VirtualAuthenticator, isUserVerified: boolean): Promise<void> {
  await authenticator.session.send("WebAuthn.setUserVerified", {
    authenticatorId: authenticator.authenticatorId,
    isUserVerified,
  });
}

/** The credentials the authenticator holds, with their sign counts (each use of a passkey raises its own). */
export async function credentialsOf(authenticator: VirtualAuthenticator): Promise<VirtualCredential[]> {
  const { credentials } = await authenticator.session.send("WebAuthn.getCredentials", {
    authenticatorId: authenticator.authenticatorId,
  });
  return credentials;
}

/**
 * A passkey of `account`'s made without a ceremony: a new P-256 key put in the page's virtual authenticator as
 * a discoverable credential for "localhost" (the e2e servers' PUBLIC_URL host) with the user handle the service's
 * registration options give this account, and its public key stored in the journey's database by `savePasskey`,
 * as a passkey added earlier in the settings would be.
 */
export async function seedPasskey(
  page: Page,
  account: { userId: string },
  db: DB,
  name = "Téléphone de test",
): Promise<{ authenticator: VirtualAuthenticator; credential: SoftCredential; passkey: PasskeySummary }> {
  const authenticator = await virtualAuthenticator(page);
  const userHandle = Buffer.from(account.userId).toString("base64url");
  const credential = newSoftCredential({ userHandle, backupEligible: true, backedUp: true });
  await authenticator.session.send("WebAuthn.addCredential", {
    authenticatorId: authenticator.authenticatorId,
    credential: {
      credentialId: Buffer.from(credential.id, "base64url").toString("base64"),
      isResidentCredential: true,
      rpId: "localhost",
      privateKey: privateKeyPkcs8(credential),
      userHandle: Buffer.from(userHandle, "base64url").toString("base64"),
      signCount: 0,
      backupEligibility: true,
      backupState: true,
    },
  });
  const passkey = await savePasskey(db, account.userId, passkeyRecord(credential, name));
  return { authenticator, credential, passkey };
}
