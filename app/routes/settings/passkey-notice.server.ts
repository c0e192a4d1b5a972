import { formatDateTime } from "~/domain/dates";
import { frenchWords, type CatalogueKey } from "~/i18n/words.server";
import { getPlatform } from "~/.server/platform";
import type { Account } from "~/.server/services/accounts";

const WORDS: Record<"added" | "removed", { subject: CatalogueKey; text: CatalogueKey }> = {
  added: { subject: "passkeys.settings.new.mailSubject", text: "passkeys.settings.new.mailText" },
  removed: { subject: "passkeys.settings.panel.mailSubject", text: "passkeys.settings.panel.mailText" },
};

/**
 * The security e-mail sent when a passkey is added to or removed from an account (issue 32 item 1), as a bank
 * tells of a new device: a passkey added by someone else would sign them in, so the person hears of it at once,
 * at the account's e-mail (whatever the notification settings say: this is no notification one can turn off).
 * In French, as every e-mail (decision 0051). A message that cannot leave is logged, never the change undone:
 * the outbox keeps what could not be handed over (decision 0042).
 */
export async function sendPasskeyNotice(
  account: Pick<Account, "email">,
  change: "added" | "removed",
  name: string,
  now = new Date(),
): Promise<void> {
  const { messenger, logger } = await getPlatform();
  const words = WORDS[change];
  try {
    await messenger.send({
      channel: "email",
      to: account.email,
      subject: frenchWords(words.subject),
      text: frenchWords(words.text, { name, date: formatDateTime(now.toISOString()) }),
    });
  } catch (error) {
    logger.error("passkey notice failed", { change, error: error instanceof Error ? error.message : String(error) });
  }
}
