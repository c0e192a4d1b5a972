import { redirect } from "react-router";
import type { Route } from "./+types/secure-account._index";
import { accountContext } from "~/.server/auth";
import { getPlatform } from "~/.server/platform";
import { CONTACT_FIELDS, pendingChanges } from "~/.server/services/profile";

/** The pending change comes first (its new number may be where codes go), then the second factor. */
export async function loader({ context }: Route.LoaderArgs) {
  const { db } = await getPlatform();
  const pending = await pendingChanges(db, context.get(accountContext).id);
  const field = CONTACT_FIELDS.find((f) => pending[f] !== undefined);
  throw redirect(field ? `/secure-account/pending/${field}` : "/secure-account/second-factor");
}
