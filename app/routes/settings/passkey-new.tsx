import { data, Form, href, Link, type RouterContextProvider } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/passkey-new";
import { CodeStep, codeStepFailed } from "~/components/CodeStep";
import { Field, useForm } from "~/components/forms";
import { Panel } from "~/components/Panel";
import { PasskeyButton } from "~/components/PasskeyButton";
import { useHydrated } from "~/components/useHydrated";
import { LightVersionNote, NoScript } from "~/components/LightVersion";
import { deviceNameFromUserAgent } from "~/domain/device-name";
import { getInstance } from "~/i18n/i18next.server";
import { accountContext } from "~/routes/+shared/auth.server";
import { CODE_STEP_INTENTS } from "~/routes/+shared/code-step";
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

const CEREMONY = href("/settings/security/passkeys/ceremony");

/** Whether this page can run a WebAuthn ceremony: hydrated, in a browser that has WebAuthn. */
function useWebAuthn(): boolean {
  const hydrated = useHydrated();
  return hydrated && typeof window.PublicKeyCredential !== "undefined";
}

function ConfirmStep({ destination, hasPasskeys, full }: { destination: string; hasPasskeys: boolean; full: boolean }) {
  const { t } = useTranslation();
  const webAuthn = useWebAuthn();
  if (full) return <p className="alert alert--warning">{t("passkeys.errors.tooMany")}</p>;
  return (
    <>
      <p>{t("passkeys.settings.new.confirmIntro")}</p>
      <Form method="post" className="actions" preventScrollReset>
        <button type="submit" name="intent" value={INTENT.send} className="button">
          {t("passkeys.settings.new.send", { destination })}
        </button>
      </Form>
      {hasPasskeys && webAuthn ? (
        <div className="passkey-confirm">
          <p>{t("passkeys.settings.new.orPasskey")}</p>
          <PasskeyButton
            action={CEREMONY}
            ceremony="authenticate"
            label={t("passkeys.settings.new.confirmWithPasskey")}
            fields={() => ({ for: "confirm" })}
            variant="secondary"
          />
        </div>
      ) : null}
    </>
  );
}

/** The name (prefilled after the device), then the browser's prompt; without WebAuthn, why not. */
function AddStep({ defaultName }: { defaultName: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const webAuthn = useWebAuthn();
  const [, fields] = useForm<{ name: string }>({ id: "passkey-name", defaultValue: { name: defaultName } });
  // Read when the button is pressed: the name goes with both of the ceremony's posts and is checked by the server.
  const nameOf = () => (document.getElementById(fields.name.id) as HTMLInputElement | null)?.value ?? "";
  return (
    <>
      <Field
        required
        field={fields.name}
        label={t("passkeys.settings.new.nameLabel")}
        hint={t("passkeys.settings.new.nameHint")}
        autoComplete="off"
      />
      {webAuthn ? (
        <>
          <p>{t("passkeys.settings.new.createIntro")}</p>
          <PasskeyButton
            action={CEREMONY}
            ceremony="register"
            label={t("passkeys.settings.new.create")}
            fields={() => ({ for: "register", name: nameOf() })}
          />
        </>
      ) : hydrated ? (
        <p className="alert alert--warning">{t("passkeys.settings.unsupported")}</p>
      ) : (
        <NoScript>
          <p className="alert alert--warning">{t("passkeys.settings.new.needsJs")}</p>
          <LightVersionNote className="hint" />
        </NoScript>
      )}
    </>
  );
}

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
      {step === "confirm" ? (
        <ConfirmStep destination={destination} hasPasskeys={loaderData.hasPasskeys} full={loaderData.full} />
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
      <p>
        <Link to={href("/settings/security")} className="link-action" preventScrollReset>
          {t("app.close")}
        </Link>
      </p>
    </Panel>
  );
}
