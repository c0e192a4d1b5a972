import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "~/i18n";
import { data, Link } from "react-router";
import type { Route } from "./+types/login-code";
import { ErrorSummary, type SummaryError } from "~/components/ErrorSummary";
import { PageHeader } from "~/components/PageHeader";
import { PublicShell } from "~/components/PublicShell";
import { OneTimeCodeForms } from "~/components/OneTimeCodeForms";
import { codeSchema, type CodeForm } from "~/domain/schemas";
import { completeSignIn, PENDING_LOGIN_MINUTES, sendLoginCode, waitingSignIn } from "~/routes/+shared/auth.server";
import { formatTime } from "~/domain/dates";
import { getInstance } from "~/middleware/i18next";
import { getPlatform } from "~/.server/platform";
import { badRequest, getSession, redirectWithFlash } from "~/routes/+shared/request.server";
import { codeDestination, getAccount, maskDestination } from "~/.server/services/accounts";
import { resendAvailableAt, verifyCode } from "~/.server/services/codes";
import { verifyErrorMessage } from "~/routes/+shared/guess-messages.server";
import type { PortalSession } from "~/.server/session";

/** The sign-in waiting for this code, or a redirect back to /login when there is none (or it is stale). */
async function pendingLoginOf(request: Request, session: PortalSession) {
  const pending = await waitingSignIn(session, "pendingLogin");
  const { db } = await getPlatform();
  const account = await getAccount(db, pending.userId);
  if (!account) throw await redirectWithFlash(request, "/login", { kind: "error", message: "errors.sessionExpired" });
  return { pending, account, db };
}

async function screenData(request: Request, session: PortalSession) {
  const { pending, account, db } = await pendingLoginOf(request, session);
  const { channel, destination } = codeDestination(account);
  const resendAt = await resendAvailableAt(db, pending.userId, "login");
  return {
    channel,
    destination: maskDestination(channel, destination),
    resendAt: resendAt && resendAt > new Date() ? resendAt.toISOString() : null,
    // The sign-in's own end: the code is refused after it, whatever the code's life (finding 12).
    expiresAt: pending.expiresAt,
    minutes: PENDING_LOGIN_MINUTES,
  };
}

export async function loader({ request }: Route.LoaderArgs) {
  const session = await getSession(request);
  return data(await screenData(request, session), { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = await getSession(request);
  const { pending, db } = await pendingLoginOf(request, session);
  const form = await request.formData();
  const intent = form.get("intent");

  if (intent === "resend") {
    const t = getInstance(context).t;
    const result = await sendLoginCode(session, (key, vars) => t(key, vars));
    const screen = await screenData(request, session);
    if (result?.status === "throttled") {
      return data({ screen, lastResult: null, resent: false, throttled: true }, { status: 429 });
    }
    return { screen, lastResult: null, resent: true, throttled: false };
  }
  if (intent !== "verify") {
    return badRequest({ screen: await screenData(request, session), lastResult: null, resent: false, throttled: false, unknownIntent: true });
  }

  const submission = parseWithZod(form, { schema: codeSchema });
  if (submission.status !== "success") {
    return badRequest({ screen: await screenData(request, session), lastResult: submission.reply(), resent: false, throttled: false });
  }
  const result = await verifyCode(db, { userId: pending.userId, purpose: "login", code: submission.value.code });
  if (result !== "ok") {
    return badRequest({
      screen: await screenData(request, session),
      lastResult: submission.reply({ fieldErrors: { code: [await verifyErrorMessage(db, pending.userId, result)] }, hideFields: ["code"] }),
      resent: false,
      throttled: false,
      // Remounts the field: a refused code is not left in it, with or without JS.
      attempt: crypto.randomUUID(),
    });
  }
  return completeSignIn(request, pending.userId, pending.redirectTo);
}

export default function LoginCode({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const screen = actionData?.screen ?? loaderData;
  const [form, fields] = useForm<CodeForm>({
    id: "login-code",
    lastResult: actionData?.lastResult,
  });
  const errors: SummaryError[] = (fields.code.errors ?? []).map((message) => ({ fieldId: fields.code.id, message }));
  if (actionData?.throttled) errors.push({ fieldId: "resend", message: "errors.tooManyRequests" });
  if (actionData && "unknownIntent" in actionData) errors.push({ fieldId: fields.code.id, message: "errors.unknownIntent" });
  const via = t(screen.channel === "sms" ? "auth.code.introSms" : "auth.code.introEmail");
  return (
    <PublicShell>
      <div className="narrow">
        <PageHeader title={t("auth.code.title")} error={errors.length > 0} />
        <ErrorSummary errors={errors} />
        {actionData?.resent ? (
          <div className="alert alert--success" role="status">
            <p>{t("auth.code.resent")}</p>
          </div>
        ) : null}
        <p>
          {t("auth.code.intro", { destination: `${screen.destination} (${via})` })}
        </p>
        <OneTimeCodeForms
          formProps={getFormProps(form)}
          field={{ id: fields.code.id, name: fields.code.name, error: fields.code.errors?.[0] }}
          attempt={actionData && "attempt" in actionData ? String(actionData.attempt) : ""}
          submitLabel={t("auth.code.submit")}
          hint={t("auth.code.signInHint", { time: formatTime(screen.expiresAt), minutes: screen.minutes })}
          resend={{ id: "resend", intent: "resend", availableAt: screen.resendAt }}
        />
        <p>
          <Link to="/login" className="link-action">
            {t("auth.code.cancel")}
          </Link>
        </p>
      </div>
    </PublicShell>
  );
}
