import { z } from "zod";
import type { MfaChannel } from "~/domain/mfa";
import { smsNumberRefusal } from "~/domain/sms";
import { getPlatform } from "~/.server/platform";
import { pendingFields } from "~/.server/services/profile";
import { parseForm, refuse } from "~/routes/+shared/forms.server";

const choiceSchema = z.object({ channel: z.string().optional() });

/**
 * Choosing the codes by SMS (spec 001 §2.4, §4) from the settings or the secure-account step is refused when no
 * text message can be delivered here, or when the number is not a mobile of a country the phone field offers
 * (decision 0062): the form contract's 400 with the reason, on the page the choice was made from. Null: nothing to
 * refuse here (e-mail, or SMS to a mobile; a missing number, or a change still waiting for its code — the new number
 * may be a mobile — are `chooseSecondFactor`'s to say, first).
 */
export async function refuseSmsChoice(
  form: FormData,
  channel: MfaChannel | null,
  account: { id: string; phone: string | null },
) {
  if (channel !== "SMS" || account.phone === null) return null;
  const { db, smsAvailable } = await getPlatform();
  if ((await pendingFields(db, account.id)).length > 0) return null;
  const reason = smsAvailable ? smsNumberRefusal(account.phone) : "sms.errors.unavailable";
  return reason ? refuse(parseForm(form, choiceSchema), { formErrors: [reason] }) : null;
}
