import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatabaseHandle } from "~/.server/db";
import { parseEnv } from "~/.server/env";
import { createLogger } from "~/.server/logger";
import { installPlatform, type Platform } from "~/.server/platform";
import { SandboxSupportChat } from "~/.server/providers/chat/sandbox";
import { FilesystemStorage } from "~/.server/providers/file-storage/filesystem";
import { createOfflineGeodata } from "~/.server/providers/geodata/offline";
import { SandboxIssuer } from "~/.server/providers/issuer/sandbox";
import { SandboxMessenger } from "~/.server/providers/messaging/sandbox";
import { SandboxPartnerLinks } from "~/.server/providers/partner-links/sandbox";
import { SandboxPaymentProcessor } from "~/.server/providers/payments/sandbox";
import { SandboxPushSender } from "~/.server/providers/push/sandbox";
import { LocalReceiptReader } from "~/.server/providers/receipt-reading/local";
import { relyingPartyOf } from "~/.server/webauthn";

/**
 * Installs the platform `getPlatform()` hands out to route modules (installPlatform): this test database and the
 * sandbox providers, files and the issuer's key in a fresh temporary folder. Answers it.
 */
export function installTestPlatform(handle: DatabaseHandle, sessionSecret: string): Platform {
  const folder = mkdtempSync(join(tmpdir(), "platform-"));
  const platform: Platform = {
    env: parseEnv({ SESSION_SECRET: sessionSecret, LOG_LEVEL: "silent" }),
    db: handle.db,
    database: handle,
    messenger: new SandboxMessenger(handle.db),
    smsAvailable: true,
    push: new SandboxPushSender(handle.db),
    webPush: null,
    issuer: new SandboxIssuer(handle.db, join(folder, "vault.key")),
    payments: new SandboxPaymentProcessor(handle.db),
    fileStorage: new FilesystemStorage(join(folder, "files")),
    receiptReader: new LocalReceiptReader(),
    geodata: createOfflineGeodata({ roadFactor: 1.3 }),
    partnerLinks: new SandboxPartnerLinks(handle.db, "http://localhost"),
    supportChat: new SandboxSupportChat(handle.db),
    analytics: null,
    relyingParty: relyingPartyOf("http://localhost"),
    logger: createLogger("silent"),
    ping: async () => {},
    close: () => handle.close(),
  };
  installPlatform(platform);
  return platform;
}
