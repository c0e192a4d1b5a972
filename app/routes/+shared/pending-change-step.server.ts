import { data, type RouterContextProvider } from "react-router";
import type { Channel } from "~/.server/providers/messaging";
import type { CodeStepScreen } from "~/routes/+shared/code-step";
import { getInstance } from "~/i18n/i18next.server";
import { accountContext } from "~/routes/+shared/auth.server";
import { codeStepAction, codeStepScreen, type CodeStep } from "~/routes/+shared/code-step.server";
import { getPlatform, publicUrl } from "~/.server/platform";
import { internalPath, internalRedirect, type InternalTarget } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import {
  applyPendingChange,
  cancelPendingChange,
  contactChangeSubject,
  isContactField,
  pendingChanges,
  resendPendingChangeCode,
  type ContactField,
  type PendingChangeMessages,
} from "~/.server/services/profile";
import {
  applyPendingIban,
  cancelIbanChange,
  ibanChangeSubject,
  pendingIban,
  resendIbanCode,
  secondFactorOf,
} from "~/.server/services/payout-details";
import { frenchWords } from "~/i18n/words.server";
import { maskIban } from "~/domain/iban";
import { IBAN_FIELD, maskedIban } from "~/domain/payout-iban";

/**
 * The pending-change step (spec 001 §4): a new e-mail or phone is confirmed with the 6-digit code sent
 * to it — the code step (decision 0022), whose verified code applies the change — or cancelled. Shared
 * by the profile settings and by the step that holds an account before its second factor is set up. The
 * profile's payout IBAN changes the same way, its code sent to the person's second factor (decision 0054).
 */

/** A field whose change waits for its code: the e-mail, the phone, or (profile only) the payout IBAN. */
export type PendingField = ContactField | typeof IBAN_FIELD;

/** The code messages, in the person's language; the e-mail carries a confirmation link too. */
export async function pendingChangeMessagesFor(
  context: Readonly<RouterContextProvider>,
): Promise<PendingChangeMessages> {
  const baseUrl = publicUrl((await getPlatform()).env);
  const t = getInstance(context).t;
  return {
    email: (newEmail) => ({
      subject: t("settings.pendingChange.emailSubject"),
      text: (code) =>
        t("settings.pendingChange.emailText", {
          code,
          link: `${baseUrl}/user-confirmation?email=${encodeURIComponent(newEmail)}&code=${code}`,
        }),
    }),
    phone: () => ({
      subject: t("settings.pendingChange.smsSubject"),
      text: (code) => t("settings.pendingChange.smsText", { code }),
    }),
  };
}

/** Where the step lives: its page for a field, where a confirmed or cancelled change leads, and where to go when none waits. */
export interface PendingChangePages {
  here: (field: PendingField) => InternalTarget;
  done: InternalTarget;
  nonePending: InternalTarget;
  /** Whether an IBAN change is confirmed here (the profile's page; not while securing the account). */
  iban: boolean;
}

export const SETTINGS_PENDING_CHANGE: PendingChangePages = {
  here: (field) => internalPath("/settings/profile/confirm/:field", { field }),
  done: "/settings/profile",
  nonePending: "/settings/profile",
  iban: true,
};
/** Straight to the next step of securing the account: a message survives one redirect only. */
export const SECURE_ACCOUNT_PENDING_CHANGE: PendingChangePages = {
  here: (field) => internalPath("/secure-account/pending/:field", { field }),
  done: "/secure-account/second-factor",
  nonePending: "/secure-account",
  iban: false,
};

/** What the two routes' loader and action receive. */
interface StepArgs {
  request: Request;
  params: { field?: string };
  context: Readonly<RouterContextProvider>;
}

export interface PendingChangeScreen extends CodeStepScreen {
  field: PendingField;
  /** Where the code went. */
  channel: Channel;
  /** The new value as shown: an IBAN masked but for its country, check digits and last four. */
  newValue: string;
}

/** The code step of the change waiting for this field, or null when none waits. */
async function pendingChangeStep(
  request: Request,
  context: Readonly<RouterContextProvider>,
  field: string | undefined,
  pages: PendingChangePages,
) {
  if (field === IBAN_FIELD && pages.iban) return ibanChangeStep(request, context, pages);
  if (!isContactField(field)) return null;
  const account = context.get(accountContext);
  const { db, messenger } = await getPlatform();
  const newValue = (await pendingChanges(db, account.id))[field];
  if (!newValue) return null;
  const leave = (kind: "success" | "error" | "info", message: string) =>
    redirectWithFlash(request, pages.done, { kind, message });
  const step: CodeStep = {
    subject: contactChangeSubject(account.id, field),
    channel: field === "email" ? "email" : "sms",
    here: pages.here(field),
    send: async () => {
      const result = await resendPendingChangeCode(
        db,
        messenger,
        account.id,
        field,
        await pendingChangeMessagesFor(context),
      );
      if (result.kind === "none") throw await leave("info", "settings.pendingChange.nothingPending");
      return result;
    },
    verified: async () => {
      const applied = await applyPendingChange(db, account.id, field);
      if (applied.kind === "taken") return leave("error", "errors.emailTaken");
      if (applied.kind === "none") return leave("info", "settings.pendingChange.nothingPending");
      return leave("success", "settings.pendingChange.validated");
    },
    cancelled: async () => {
      await cancelPendingChange(db, account.id, field);
      return leave("success", "settings.pendingChange.cancelled");
    },
  };
  return { step, field, newValue };
}

/** The code message of an IBAN change, in the person's language: it names the new account's last four. */
export function ibanCodeMessageFor(context: Readonly<RouterContextProvider>, iban: string) {
  const t = getInstance(context).t;
  return {
    subject: t("settings.profile.payout.codeSubject"),
    text: (code: string) => t("settings.profile.payout.codeText", { code, lastFour: maskIban(iban) }),
  };
}

/**
 * The code step of the IBAN change waiting, or null when none waits: the code goes to the person's second
 * factor; once right, the IBAN is saved and the person told by a notification and an e-mail (in French, as
 * notifications are), "Vos coordonnées bancaires ont été modifiées".
 */
async function ibanChangeStep(request: Request, context: Readonly<RouterContextProvider>, pages: PendingChangePages) {
  const account = context.get(accountContext);
  const { db, messenger, push } = await getPlatform();
  const [newIban, factor] = await Promise.all([pendingIban(db, account.id), secondFactorOf(db, account.id)]);
  if (!newIban || !factor) return null;
  const leave = (kind: "success" | "info", message: string) =>
    redirectWithFlash(request, pages.done, { kind, message });
  const step: CodeStep = {
    subject: ibanChangeSubject(account.id),
    channel: factor.channel,
    here: pages.here(IBAN_FIELD),
    send: async () => {
      const result = await resendIbanCode(db, messenger, account.id, ibanCodeMessageFor(context, newIban));
      if (result.kind === "none") throw await leave("info", "settings.pendingChange.nothingPending");
      return result;
    },
    verified: async () => {
      const applied = await applyPendingIban({ db, messenger, push }, account.id, (lastFour) => ({
        subject: frenchWords("settings.profile.payout.changedSubject"),
        text: frenchWords("settings.profile.payout.changedText", { lastFour }),
      }));
      if (applied === null) return leave("info", "settings.pendingChange.nothingPending");
      return leave("success", "settings.profile.payout.changed");
    },
    cancelled: async () => {
      await cancelIbanChange(db, account.id);
      return leave("success", "settings.pendingChange.cancelled");
    },
  };
  return { step, field: IBAN_FIELD, newValue: maskedIban(newIban) };
}

/** The page of the change waiting for the URL's field; with none waiting, away to `nonePending`. */
export async function pendingChangeLoader({ request, params, context }: StepArgs, pages: PendingChangePages) {
  const found = await pendingChangeStep(request, context, params.field, pages);
  if (!found) throw internalRedirect(pages.nonePending);
  const screen: PendingChangeScreen = {
    ...(await codeStepScreen(found.step)),
    field: found.field,
    newValue: found.newValue,
    channel: found.step.channel,
  };
  return data(screen, { headers: { "Cache-Control": "no-store" } });
}

/** Handles the step's buttons; with nothing (any more) waiting, back to `done`, which says so. */
export async function pendingChangeAction({ request, params, context }: StepArgs, pages: PendingChangePages) {
  const found = await pendingChangeStep(request, context, params.field, pages);
  if (!found)
    return redirectWithFlash(request, pages.done, { kind: "info", message: "settings.pendingChange.nothingPending" });
  return codeStepAction(request, found.step, await request.formData());
}
