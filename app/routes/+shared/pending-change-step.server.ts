import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import { codeSchema } from "~/domain/schemas";
import { getInstance } from "~/middleware/i18next";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform, publicUrl } from "~/.server/platform";
import type { InternalTarget } from "~/routes/+shared/redirects.server";
import { badRequest, redirectWithFlash } from "~/routes/+shared/request.server";
import { verifyErrorMessage } from "~/routes/+shared/guess-messages.server";
import { cancelPendingChange, confirmPendingChange, isContactField, pendingChangeResendAt, pendingChanges, resendPendingChangeCode, type ContactField, type PendingChangeMessages } from "~/.server/services/profile";

/**
 * The pending-change step (spec 001 §4): confirm a new e-mail or phone with the 6-digit code sent to
 * it, ask for a new code (60 s apart), or cancel. Shared by the profile settings and by the step that
 * holds an account before its second factor is set up.
 */
/** The code messages, in the person's language; the e-mail carries a confirmation link too. */
export async function pendingChangeMessagesFor(context: Readonly<RouterContextProvider>): Promise<PendingChangeMessages> {
  const baseUrl = publicUrl((await getPlatform()).env);
  const t = getInstance(context).t;
  return {
    email: (newEmail) => ({
      subject: t("settings.pendingChange.emailSubject"),
      text: (code) =>
        t("settings.pendingChange.emailText", { code, link: `${baseUrl}/user-confirmation?email=${encodeURIComponent(newEmail)}&code=${code}` }),
    }),
    phone: () => ({ subject: t("settings.pendingChange.smsSubject"), text: (code) => t("settings.pendingChange.smsText", { code }) }),
  };
}

export interface PendingChangeScreen {
  field: ContactField;
  newValue: string;
  resendAt: string | null;
}

/** The pending change named in the URL, or null when there is none for this field. */
export async function pendingChangeScreen(context: Readonly<RouterContextProvider>, field: string | undefined): Promise<PendingChangeScreen | null> {
  if (!isContactField(field)) return null;
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const newValue = (await pendingChanges(db, account.id))[field];
  if (!newValue) return null;
  const resendAt = await pendingChangeResendAt(db, account.id, field);
  return { field, newValue, resendAt: resendAt && resendAt > new Date() ? resendAt.toISOString() : null };
}

/** Handles the step's three buttons; `done` is where a confirmed or cancelled change leads. */
export async function pendingChangeAction(request: Request, context: Readonly<RouterContextProvider>, field: ContactField, done: InternalTarget) {
  const account = context.get(accountContext);
  const { db, messenger } = await getPlatform();
  const form = await request.formData();
  const intent = form.get("intent");

  if (intent === "cancel") {
    await cancelPendingChange(db, account.id, field);
    return redirectWithFlash(request, done, { kind: "success", message: "settings.pendingChange.cancelled" });
  }
  if (intent === "resend") {
    const messages = await pendingChangeMessagesFor(context);
    const result = await resendPendingChangeCode(db, messenger, account.id, field, messages);
    if (result === "none") return redirectWithFlash(request, done, { kind: "info", message: "settings.pendingChange.nothingPending" });
    if (result.status === "throttled") return data({ lastResult: null, throttled: true, resent: false, attempt: "", unknownIntent: false }, { status: 429 });
    return { lastResult: null, throttled: false, resent: true, attempt: "", unknownIntent: false };
  }
  if (intent !== "verify") return badRequest({ lastResult: null, throttled: false, resent: false, attempt: "", unknownIntent: true });

  const submission = parseWithZod(form, { schema: codeSchema });
  if (submission.status !== "success") return badRequest({ lastResult: submission.reply(), throttled: false, resent: false, attempt: crypto.randomUUID(), unknownIntent: false });
  const result = await confirmPendingChange(db, account.id, field, submission.value.code);
  if (result === "ok") return redirectWithFlash(request, done, { kind: "success", message: "settings.pendingChange.validated" });
  if (result === "none") return redirectWithFlash(request, done, { kind: "info", message: "settings.pendingChange.nothingPending" });
  if (result === "taken") return redirectWithFlash(request, done, { kind: "error", message: "errors.emailTaken" });
  return badRequest({
    lastResult: submission.reply({ fieldErrors: { code: [await verifyErrorMessage(db, account.id, result)] }, hideFields: ["code"] }),
    throttled: false,
    resent: false,
    // Remounts the field: a refused code is not left in it, with or without JS.
    attempt: crypto.randomUUID(),
    unknownIntent: false,
  });
}
