import { lazy, Suspense } from "react";
import { data, href, Link, type RouterContextProvider } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/passkey-new";
import { Panel } from "~/components/Panel";
import { deviceNameFromUserAgent } from "~/domain/device-name";
import { getInstance } from "~/i18n/i18next.server";
import { accountContext } from "~/routes/+shared/auth.server";
import { CODE_STEP_INTENTS, codeStepFailed } from "~/routes/+shared/code-step";
import { codeStepAction, codeStepScreen, type CodeStep as CodeStepFlow } from "~/routes/+shared/code-step.server";
import { codeSentFlash } from "~/routes/+shared/code-sent.server";
import { intents } from "~/routes/+shared/intents";
import { intentOf } from "~/routes/+shared/intents.server";
import { internalRedirect } from "~/routes/+shared/redirects.server";
import { getSession, redirectWithFlash } from "~/routes/+shared/request.server";
import { getPlatform } from "~/.server/platform";
import { codeDestination, maskDestination, type Account } from "~/.server/services/accounts";
import { issueCode } from "~/.server/services/codes";
import { listPasskeys, PASSKEY_LIMIT } from "~/.server/services/passkeys";
import { addStepPath, ADD_START, enrolmentOf, grantEnrolment } from "./passkey-enrolment.server";

/**
 * Adding a passkey (issue 32 item 1), a panel over the security page with its steps in the URL: confirm (a
 * code is sent, as the card reveal's ask step; or, with a passkey already, that passkey) → code (the one code
 * step, decision 0022) → add (a name prefilled after the device, then the browser makes the passkey). A right
 * code or passkey grants the session's enrolment (passkey-enrolment.server.ts), without which the add step
 * sends back to the start and the registration's resource route (passkey-ceremony.ts) refuses.
 */
type Step = "confirm" | "code" | "add";
const STEP_NUMBER: Record<Step, number> = { confirm: 1, code: 2, add: 3 };
const stepOf = (url: URL): Step => {
  const step = url.searchParams.get("step");
  return step === "code" || step === "add" ? step : "confirm";
};
/** The confirm step's button, then the code step's. */
const INTENT = intents("send", ...CODE_STEP_INTENTS);

/** The confirmation's code: for this account, sent where its codes go; once right, the enrolment is granted. */
function confirmationCodeStep(
  request: Request,
  context: Readonly<RouterContextProvider>,
  account: Account,
): CodeStepFlow {
  const { channel, destination } = codeDestination(account);
  const subject = { userId: account.id, purpose: "passkeyAdd", target: account.id } as const;
  return {
    subject,
    channel,
    here: addStepPath("code"),
    send: async () => {
      const { db, messenger } = await getPlatform();
      const t = getInstance(context).t;
      const message = {
        subject: t("passkeys.settings.new.messageSubject"),
        text: (code: string) => t("passkeys.settings.new.messageText", { code }),
      };
      return issueCode(db, messenger, { subject, channel, destination, message });
    },
    verified: async () => {
      grantEnrolment(await getSession(request), account.id);
      return redirectWithFlash(request, addStepPath("add"), {
        kind: "success",
        message: "passkeys.settings.new.confirmed",
      });
    },
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const step = stepOf(new URL(request.url));
  const { channel, destination } = codeDestination(account);
  const count = (await listPasskeys(db, account.id)).length;
  const base = {
    step,
    channel,
    destination: maskDestination(channel, destination),
    hasPasskeys: count > 0,
    full: count >= PASSKEY_LIMIT,
    resendAt: null as string | null,
    defaultName: "",
  };
  const noStore = { "Cache-Control": "no-store" };
  if (step === "code") {
    const { resendAt } = await codeStepScreen(confirmationCodeStep(request, context, account));
    return data({ ...base, resendAt }, { headers: noStore });
  }
  if (step === "add") {
    // Without a live confirmation, the add step is the start again (an expired one says so).
    const enrolment = enrolmentOf(await getSession(request), account.id);
    if (enrolment === "expired")
      throw await redirectWithFlash(request, ADD_START, { kind: "error", message: "passkeys.settings.new.expired" });
    if (enrolment === "none") throw internalRedirect(ADD_START, { headers: noStore });
    const t = getInstance(context).t;
    const defaultName = deviceNameFromUserAgent(request.headers.get("User-Agent"), {
      on: (browser, system) => t("passkeys.settings.new.deviceName", { browser, system }),
      fallback: t("passkeys.settings.new.thisDevice"),
    });
    return data({ ...base, defaultName }, { headers: noStore });
  }
  return data(base, { headers: noStore });
}

export async function action({ request, context }: Route.ActionArgs) {
  const step = confirmationCodeStep(request, context, context.get(accountContext));
  const form = await request.formData();
  switch (intentOf(form, INTENT)) {
    case INTENT.send: {
      // Asked again within a minute, the code already sent stands: the person goes on with that one.
      const flash = codeSentFlash(await step.send());
      if (!flash) return internalRedirect(addStepPath("code"));
      return redirectWithFlash(request, addStepPath("code"), flash);
    }
    default:
      return codeStepAction(request, step, form);
  }
}

/*
 * Each step loads what only it shows (decision 0080): the confirm and add steps (passkey-new-steps.tsx), and the
 * code step's form (CodeStep). The server renders the step whole inside the panel's Suspense; in the browser the
 * step's file is asked for as soon as this module runs (the step is in the address), before hydration.
 */
const codeStep = () => import("~/components/CodeStep");
const steps = () => import("./passkey-new-steps");
const CodeStep = lazy(() => codeStep().then(({ CodeStep }) => ({ default: CodeStep })));
const ConfirmStep = lazy(() => steps().then(({ ConfirmStep }) => ({ default: ConfirmStep })));
const AddStep = lazy(() => steps().then(({ AddStep }) => ({ default: AddStep })));
if (typeof window !== "undefined")
  (new URLSearchParams(window.location.search).get("step") === "code" ? codeStep() : steps()).catch(() => undefined);

export default function AddPasskeyPanel({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { step } = loaderData;
  const via = t(loaderData.channel === "sms" ? "auth.code.introSms" : "auth.code.introEmail");
  const destination = `${loaderData.destination} (${via})`;
  return (
    <Panel
      id="passkey-new"
      title={t("passkeys.settings.new.title")}
      closeTo={href("/settings/security")}
      error={codeStepFailed(actionData)}
    >
      <p className="hint">{t("passkeys.settings.new.progress", { step: STEP_NUMBER[step] })}</p>
      <Suspense>
        {step === "confirm" ? (
          <ConfirmStep
            destination={destination}
            hasPasskeys={loaderData.hasPasskeys}
            full={loaderData.full}
            sendIntent={INTENT.send}
          />
        ) : null}
        {step === "code" ? (
          <CodeStep
            formId="passkey-code"
            actionData={actionData}
            screen={loaderData}
            submitLabel={t("passkeys.settings.new.verify")}
            preventScrollReset
          >
            <p>{t("auth.code.intro", { destination })}</p>
          </CodeStep>
        ) : null}
        {step === "add" ? <AddStep defaultName={loaderData.defaultName} /> : null}
      </Suspense>
      <p>
        <Link to={href("/settings/security")} className="link-action" preventScrollReset>
          {t("app.close")}
        </Link>
      </p>
    </Panel>
  );
}
