import { FormAlert } from "~/components/forms/FormAlert";
import { href } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/second-factor";
import { DocumentTitle } from "~/components/DocumentTitle";
import { MfaConfirmation, MfaOptions } from "~/components/SecondFactor";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { chooseSecondFactor } from "~/routes/+shared/second-factor.server";
import { listCards } from "~/.server/services/cards";
import { pendingFields } from "~/.server/services/profile";
import { mfaChannelOf } from "~/domain/mfa";
import { mfaStatus } from "~/.server/services/security";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";
import { refuseSmsChoice } from "~/routes/+shared/sms-choice.server";
import { useForm } from "~/components/forms";

/**
 * Step 2: choose e-mail (recommended) or SMS, confirm; then the portal opens (spec 001 §4, §6). SMS only where text
 * messages can be delivered, to a mobile (decision 0062): otherwise the confirmation is refused (400).
 */

export async function loader({ request, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db, smsAvailable } = await getPlatform();
  // A change still waiting for its code comes first (the new number may be where codes go).
  const [field] = await pendingFields(db, account.id);
  if (field) throw internalRedirect(internalPath("/secure-account/pending/:field", { field }));
  const mfa = mfaStatus(account);
  const channel = mfaChannelOf(new URL(request.url).searchParams.get("channel"));
  if (channel && (!mfa.destinations[channel] || (channel === "SMS" && !smsAvailable)))
    throw internalRedirect("/secure-account/second-factor");
  return { mfa, channel, smsAvailable };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const channel = mfaChannelOf(form.get("channel"));
  const refused = await refuseSmsChoice(form, channel, context.get(accountContext));
  if (refused) return refused;
  return chooseSecondFactor(request, context, channel, {
    from: "/secure-account/second-factor",
    pendingChange: (field) => internalPath("/secure-account/pending/:field", { field }),
    // Straight to the first card: a message survives one redirect only.
    done: async () => {
      const { db } = await getPlatform();
      const [card] = await listCards(db, context.get(accountContext).id);
      return {
        to: card ? internalPath("/cards/:cardId", { cardId: card.id }) : "/cards",
        message: "secureAccount.done",
      };
    },
  });
}

export default function SecureAccountSecondFactor({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { mfa, channel, smsAvailable } = loaderData;
  const [form] = useForm({ id: "mfa-choice", lastResult: actionData });
  const refusal = form.errors?.[0];
  const title = t(
    channel ? (channel === "EMAIL" ? "mfa.confirmTitleEmail" : "mfa.confirmTitleSms") : "secureAccount.chooseTitle",
  );
  return (
    <section aria-labelledby="secure-account-step">
      <DocumentTitle page={title} error={Boolean(refusal)} />
      <h2 id="secure-account-step">{title}</h2>
      <FormAlert errors={form.errors} />
      {channel ? (
        <MfaConfirmation
          channel={channel}
          destination={mfa.destinations[channel]!}
          backHref="/secure-account/second-factor"
          profileHref={null}
        />
      ) : (
        <>
          <p>{t("secureAccount.chooseIntro")}</p>
          <MfaOptions
            mfa={mfa}
            smsAvailable={smsAvailable}
            chooseHref={(c) => `${href("/secure-account/second-factor")}?channel=${c}`}
            profileHref={null}
          />
        </>
      )}
    </section>
  );
}
