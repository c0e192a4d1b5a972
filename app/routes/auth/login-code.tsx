import { useTranslation } from "~/i18n";
import { data, type RouterContextProvider } from "react-router";
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
import { getSession, redirectWithFlash } from "~/routes/+shared/request.server";
import { codeDestination, getAccount, maskDestination } from "~/.server/services/accounts";
import { mailDelayed } from "~/.server/services/mail-status";
import { adoptBrowserConsent } from "~/routes/+shared/consent.server";

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
  return { step, pending, channel, to: destination, destination: maskDestination(channel, destination) };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { step, pending, channel, destination, to } = await signInStep(request, context);
  const { db } = await getPlatform();
  const screen = {
    ...(await codeStepScreen(step)),
    channel,
    destination,
    // The code's e-mail could not leave yet (decision 0042): the page does not say it was sent.
    delayed: channel === "email" && (await mailDelayed(db, to)),
    expiresAt: pending.expiresAt,
    minutes: PENDING_LOGIN_MINUTES,
  };
  return data(screen, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { step } = await signInStep(request, context);
  return codeStepAction(request, step, await request.formData());
}

export default function LoginCode({ loaderData: screen, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
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
        <p>
          {t(screen.delayed ? "auth.code.introDelayed" : "auth.code.intro", {
            destination: `${screen.destination} (${via})`,
          })}
        </p>
      </CodeStep>
    </PublicPage>
  );
}
