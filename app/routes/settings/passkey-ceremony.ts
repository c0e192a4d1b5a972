import type { Route } from "./+types/passkey-ceremony";
import { passkeyNameSchema } from "~/domain/passkeys";
import { getInstance } from "~/i18n/i18next.server";
import { accountContext } from "~/routes/+shared/auth.server";
import { passkeyCeremony } from "~/routes/+shared/passkey-ceremony.server";
import { unknownIntent } from "~/routes/+shared/intents.server";
import { internalRedirect } from "~/routes/+shared/redirects.server";
import { getSession, redirectWithFlash } from "~/routes/+shared/request.server";
import { getPlatform } from "~/.server/platform";
import {
  authenticationOptions,
  finishAuthentication,
  finishRegistration,
  registrationOptions,
} from "~/.server/services/passkeys";
import { addStepPath, ADD_START, enrolmentOf, grantEnrolment, spendEnrolment } from "./passkey-enrolment.server";
import { sendPasskeyNotice } from "./passkey-notice.server";

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * The add panel's two passkey ceremonies (issue 32 item 1; Contract P2's protocol, passkey-ceremony.server.ts),
 * told apart by the `for` field:
 * - `confirm`: the fresh confirmation of the account with one of its own passkeys, instead of a code; once
 *   right, the session's enrolment is granted and the person goes on to the add step.
 * - `register`: the new passkey, only while the session holds a live enrolment for this person (403
 *   otherwise, before any challenge is made), with a name checked first (400 with the field's words); once
 *   made, the enrolment is spent, the person is told by e-mail, and the security page lists it.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  // The ceremony reads the form itself; its `for` and `name` are read here from a copy.
  const form = await request.clone().formData();
  const { db, relyingParty } = await getPlatform();
  const session = await getSession(request);

  if (form.get("for") === "confirm") {
    const ceremony = { purpose: "confirm", userId: account.id } as const;
    return passkeyCeremony(request, {
      options: (binding) => authenticationOptions(db, relyingParty, ceremony, binding),
      verify: async (binding, answer) => {
        const result = await finishAuthentication(db, relyingParty, ceremony, binding, answer);
        if (result.kind !== "ok") return result;
        grantEnrolment(session, account.id);
        return redirectWithFlash(request, addStepPath("add"), {
          kind: "success",
          message: "passkeys.settings.new.confirmed",
        });
      },
    });
  }
  if (form.get("for") !== "register") throw unknownIntent();

  if (enrolmentOf(session, account.id) !== "live")
    return Response.json({ error: "passkeys.settings.new.confirmFirst" }, { status: 403, headers: NO_STORE });
  const name = passkeyNameSchema.safeParse(form.get("name") ?? "");
  if (!name.success) return Response.json({ error: name.error.issues[0]?.message }, { status: 400, headers: NO_STORE });
  return passkeyCeremony(request, {
    options: (binding) => registrationOptions(db, relyingParty, account, binding),
    verify: async (binding, answer) => {
      const result = await finishRegistration(db, relyingParty, account.id, binding, answer, name.data);
      if (result.kind !== "ok") return result;
      spendEnrolment(session);
      await sendPasskeyNotice(account, "added", result.passkey.name);
      // The flash names the passkey: worded here in the person's language (a flash carries no values).
      const t = getInstance(context).t;
      return redirectWithFlash(request, "/settings/security", {
        kind: "success",
        message: t("passkeys.settings.new.done", { name: result.passkey.name }),
      });
    },
  });
}

/** Opened as a page: the add panel. */
export function loader() {
  return internalRedirect(ADD_START);
}
