import { useTranslation } from "~/i18n";
import { data, Form, href, type RouterContextProvider } from "react-router";
import type { Route } from "./+types/login-code";
import { PublicPage } from "~/components/PublicShell";
import { CodeStep, codeStepFailed } from "~/components/CodeStep";
import {
  cancelWaitingSignIn,
  completeSignIn,
  PENDING_LOGIN_MINUTES,
  sendLoginCode,
  signInSubject,
  waitingSignIn,
} from "~/routes/+shared/auth.server";
import { codeStepAction, codeStepScreen, type CodeStep as CodeStepFlow } from "~/routes/+shared/code-step.server";
import { formatTime } from "~/domain/dates";
import { getInstance } from "~/i18n/i18next.server";
import { getPlatform } from "~/.server/platform";
import { commitSession, getSession, redirectWithFlash } from "~/routes/+shared/request.server";
import { codeDestination, getAccount, maskDestination } from "~/.server/services/accounts";
import { messageStatus } from "~/.server/services/mail-status";
import { adoptBrowserConsent } from "~/routes/+shared/consent.server";
import { PasskeyButton } from "~/components/PasskeyButton";
import { CODE_STEP_INTENT } from "~/routes/+shared/code-step";
import { intents } from "~/routes/+shared/intents";
import { intentOf } from "~/routes/+shared/intents.server";
import { codeSentFlash } from "~/routes/+shared/code-sent.server";
import { internalRedirect } from "~/routes/+shared/redirects.server";

/** The buttons of the step when it waits for a passkey (decision 0061): a code instead, or giving up. */
const PASSKEY_STEP_INTENT = intents("useCode", CODE_STEP_INTENT.cancel);

/**
 * The sign-in's second factor (spec 001 §4): the code step, for the sign-in waiting in the session.
 * Once the code is right, the sign-in ends (completeSignIn); the sign-in's own end (15 minutes) is
 * the code's deadline here, whatever the code's life (issue 13, finding 12).
 */
async function signInStep(request: Request, context: Readonly<RouterContextProvider>) {
  const session = await getSession(request);
  const pending = await waitingSignIn(session, "pendingLogin");
  const { db } = await getPlatform();
  const account = await getAccount(db, pending.userId);
  const expired = () => redirectWithFlash(request, "/login", { kind: "error", message: "errors.sessionExpired" });
  if (!account) throw await expired();
  const { channel, destination } = codeDestination(account);
  const step: CodeStepFlow = {
    subject: signInSubject(account.id),
    channel,
    here: "/login/code",
    send: async () => {
      const t = getInstance(context).t;
      const sent = await sendLoginCode(session, (key, vars) => t(key, vars));
      if (!sent) throw await expired();
      return sent;
    },
    verified: async () => {
      // The banner's choice made before signing in becomes the account's, when it has none (decision 0059).
      await adoptBrowserConsent(db, request, pending.userId);
      return completeSignIn(request, pending.userId, pending.redirectTo);
    },
    cancelled: () => cancelWaitingSignIn(session),
  };
  return {
    step,
    session,
    pending,
    account,
    channel,
    to: destination,
    destination: maskDestination(channel, destination),
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { step, pending, account, channel, destination, to } = await signInStep(request, context);
  const { db } = await getPlatform();
  const screen = {
    ...(await codeStepScreen(step)),
    channel,
    destination,
    // The code's e-mail or SMS could not leave yet (decision 0042), or the SMS gateway refused the number for good
    // (decision 0062): the page does not say it was sent.
    delivery: await messageStatus(db, to),
    expiresAt: pending.expiresAt,
    minutes: PENDING_LOGIN_MINUTES,
    // What the sign-in waits for: a passkey this browser can use (no code sent yet), or the code.
    method: pending.method ?? "code",
    hasPasskeys: account.hasPasskeys,
  };
  return data(screen, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { step, session, pending } = await signInStep(request, context);
  const form = await request.formData();
  if (pending.method !== "passkey") return codeStepAction(request, step, form);
  switch (intentOf(form, PASSKEY_STEP_INTENT)) {
    case PASSKEY_STEP_INTENT.useCode: {
      // « Utiliser un code à la place »: the code is sent now, and the step becomes the code step (JS or not).
      const flash = codeSentFlash(await step.send());
      session.set("pendingLogin", { ...pending, method: "code" });
      if (flash) session.flash("flash", flash);
      return internalRedirect("/login/code", { headers: { "Set-Cookie": await commitSession(session) } });
    }
    case PASSKEY_STEP_INTENT.cancel:
      return cancelWaitingSignIn(session);
  }
}

/**
 * The second factor by passkey: the passkey first, the code one click away (« Utiliser un code à la
 * place », a plain form that works without JavaScript), and giving up.
 */
function PasskeyStep({ screen }: { screen: Route.ComponentProps["loaderData"] }) {
  const { t } = useTranslation();
  const via = t(screen.channel === "sms" ? "auth.code.introSms" : "auth.code.introEmail");
  return (
    <PublicPage title={t("passkeys.signIn.title")}>
      <p>{t("passkeys.signIn.intro")}</p>
      <PasskeyButton
        action={href("/login/passkey")}
        ceremony="authenticate"
        label={t("passkeys.signIn.usePasskey")}
        fields={() => ({ for: "secondFactor" })}
      />
      <p className="hint">
        {t("passkeys.signIn.deadline", { time: formatTime(screen.expiresAt), minutes: screen.minutes })}
      </p>
      <Form method="post" className="passkey-alternative">
        <button
          type="submit"
          name="intent"
          value={PASSKEY_STEP_INTENT.useCode}
          className="button button--secondary"
          aria-describedby="use-code-hint"
        >
          {t("passkeys.signIn.useCode")}
        </button>
        <p id="use-code-hint" className="hint">
          {t("passkeys.signIn.useCodeHint", { via })}
        </p>
      </Form>
      <Form method="post" className="actions">
        <button type="submit" name="intent" value={PASSKEY_STEP_INTENT.cancel} className="button button--secondary">
          {t("auth.code.cancel")}
        </button>
      </Form>
    </PublicPage>
  );
}

/**
 * The code step's first sentence: sent; not sent yet (by e-mail or SMS); refused (SMS only); or given up before the
 * code's end (either channel: a new code is needed).
 */
function introKey(channel: "email" | "sms", delivery: "delayed" | "refused" | "givenUp" | null) {
  if (delivery === "refused") return "sms.introRefused";
  if (delivery === "givenUp") return "sms.introGivenUp";
  if (delivery === "delayed") return channel === "sms" ? "sms.introDelayed" : "auth.code.introDelayed";
  return "auth.code.intro";
}

export default function LoginCode({ loaderData: screen, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  if (screen.method === "passkey") return <PasskeyStep screen={screen} />;
  const via = t(screen.channel === "sms" ? "auth.code.introSms" : "auth.code.introEmail");
  return (
    <PublicPage title={t("auth.code.title")} error={codeStepFailed(actionData)}>
      <CodeStep
        formId="login-code"
        actionData={actionData}
        screen={screen}
        submitLabel={t("auth.code.submit")}
        hint={t("auth.code.signInHint", { time: formatTime(screen.expiresAt), minutes: screen.minutes })}
        cancelLabel={t("auth.code.cancel")}
      >
        <p>{t(introKey(screen.channel, screen.delivery), { destination: `${screen.destination} (${via})` })}</p>
      </CodeStep>
      {screen.hasPasskeys ? (
        <div className="passkey-alternative">
          <PasskeyButton
            action={href("/login/passkey")}
            ceremony="authenticate"
            label={t("passkeys.signIn.usePasskeyInstead")}
            fields={() => ({ for: "secondFactor" })}
            variant="secondary"
          />
        </div>
      ) : null}
    </PublicPage>
  );
}
