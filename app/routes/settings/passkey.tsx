import { getFormProps } from "~/components/forms/useForm";
import { z } from "zod";
import { Form, href, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/passkey";
import { ErrorSummary, Field, useForm } from "~/components/forms";
import { Panel } from "~/components/Panel";
import { passkeyNameSchema } from "~/domain/passkeys";
import { getInstance } from "~/i18n/i18next.server";
import { accountContext } from "~/routes/+shared/auth.server";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { INTENT_FIELD, intents } from "~/routes/+shared/intents";
import { intentOf } from "~/routes/+shared/intents.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { getPlatform } from "~/.server/platform";
import { codeDestination, maskDestination, type Account } from "~/.server/services/accounts";
import { mustSetUpMfa } from "~/.server/services/security";
import { findPasskey, listPasskeys, removePasskey, renamePasskey } from "~/.server/services/passkeys";
import { sendPasskeyNotice } from "./passkey-notice.server";

/**
 * One passkey's panel over the security page (issue 32 item 1): rename it (the name's rules of
 * passkeyNameSchema, 400 with the field's words), or, at `?step=remove`, remove it after a confirmation saying
 * what follows — the same shape as the cancel confirmation (CancelConfirmation.tsx): what goes, what follows,
 * one danger button and the way back. A passkey that is not the person's (unknown, removed, another user's) is
 * the security page with one message, on the page as on the post: nothing says whether it exists.
 *
 * Removing the last passkey never locks anyone out, and the panel says what follows: with codes on, the next
 * sign-in asks for the password and a code (by e-mail at least: codeDestination falls back to the account's
 * e-mail), and says where it goes; with no code on, the account is held at /secure-account to choose its codes
 * (spec 001 §4 "MFA-required", security.ts mustSetUpMfa: a passkey no longer stands for them); with bypassMFA,
 * the password alone.
 */
const LIST = "/settings/security" as const;
const INTENT = intents("rename", "remove");
const renameSchema = z.object({ name: passkeyNameSchema });
type Step = "rename" | "remove";

/** How the person signs in once their last passkey is gone (the words of the remove panel). */
function afterLastPasskey(account: Account): "code" | "chooseCodes" | "password" {
  if (account.mfaEnabled) return "code";
  return mustSetUpMfa({ ...account, hasPasskeys: false }) ? "chooseCodes" : "password";
}

const AFTER_LAST = {
  code: "passkeys.settings.panel.removeLast",
  chooseCodes: "passkeys.settings.panel.removeLastChoose",
  password: "passkeys.settings.panel.removeLastPassword",
} as const;

const notFound = (request: Request) =>
  redirectWithFlash(request, LIST, { kind: "error", message: "passkeys.settings.notFound" });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const passkey = await findPasskey(db, account.id, params.passkeyId);
  if (!passkey) throw await notFound(request);
  const step: Step = new URL(request.url).searchParams.get("step") === "remove" ? "remove" : "rename";
  const others = (await listPasskeys(db, account.id)).filter((each) => each.id !== passkey.id).length;
  const { channel, destination } = codeDestination(account);
  return {
    step,
    passkey: { id: passkey.id, name: passkey.name },
    // The last one: the panel says how the person signs in after it (the code, and where it goes).
    last:
      others === 0
        ? { channel, destination: maskDestination(channel, destination), then: afterLastPasskey(account) }
        : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const form = await request.formData();
  const passkey = await findPasskey(db, account.id, params.passkeyId);
  if (!passkey) return notFound(request);
  const t = getInstance(context).t;
  switch (intentOf(form, INTENT)) {
    case INTENT.rename: {
      const submission = parseForm(form, renameSchema);
      if (submission.status !== "success") return refuse(submission);
      const { name } = submission.value;
      if (!(await renamePasskey(db, account.id, passkey.id, name))) return notFound(request);
      return redirectWithFlash(request, LIST, {
        kind: "success",
        message: t("passkeys.settings.panel.renamed", { name }),
      });
    }
    case INTENT.remove: {
      if (!(await removePasskey(db, account.id, passkey.id))) return notFound(request);
      await sendPasskeyNotice(account, "removed", passkey.name);
      return redirectWithFlash(request, LIST, {
        kind: "success",
        message: t("passkeys.settings.panel.removed", { name: passkey.name }),
      });
    }
  }
}

function RenameForm({ name, lastResult }: { name: string; lastResult: Route.ComponentProps["actionData"] }) {
  const { t } = useTranslation();
  const [form, fields] = useForm<{ name: string }>({
    id: "passkey-rename",
    lastResult,
    defaultValue: { name },
  });
  return (
    <>
      <ErrorSummary form={form} fields={[fields.name]} />
      <Form method="post" {...getFormProps(form)} noValidate preventScrollReset>
        <Field
          required
          field={fields.name}
          label={t("passkeys.settings.new.nameLabel")}
          hint={t("passkeys.settings.new.nameHint")}
          autoComplete="off"
        />
        <div className="actions">
          <button type="submit" name={INTENT_FIELD} value={INTENT.rename} className="button">
            {t("passkeys.settings.panel.save")}
          </button>
          <Link to={LIST} className="link-action" preventScrollReset>
            {t("app.close")}
          </Link>
        </div>
      </Form>
    </>
  );
}

export default function PasskeyPanel({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { step, passkey, last } = loaderData;
  if (step === "remove") {
    const via = last ? t(last.channel === "sms" ? "auth.code.introSms" : "auth.code.introEmail") : "";
    return (
      <Panel id="passkey-remove" title={t("passkeys.settings.panel.removeTitle")} closeTo={LIST}>
        <p>{t("passkeys.settings.panel.removeIntro", { name: passkey.name })}</p>
        {last ? <p>{t(AFTER_LAST[last.then], { via, destination: last.destination })}</p> : null}
        <p className="hint">{t("passkeys.settings.panel.removeHint")}</p>
        <Form method="post" className="actions" preventScrollReset>
          <button type="submit" name={INTENT_FIELD} value={INTENT.remove} className="button button--danger">
            {t("passkeys.settings.panel.confirmRemove")}
          </button>
          <Link to={LIST} className="link-action" preventScrollReset>
            {t("passkeys.settings.panel.keep")}
          </Link>
        </Form>
      </Panel>
    );
  }
  return (
    <Panel
      id="passkey-rename"
      title={t("passkeys.settings.panel.renameTitle")}
      closeTo={href("/settings/security")}
      error={actionData?.status === "error"}
    >
      <RenameForm key={passkey.id} name={passkey.name} lastResult={actionData} />
    </Panel>
  );
}
