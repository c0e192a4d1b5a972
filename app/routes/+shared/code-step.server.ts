import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { z } from "zod";
import type { CodeStepIntent, CodeStepScreen } from "~/domain/code-step";
import { codeSchema } from "~/domain/schemas";
import { getPlatform } from "~/.server/platform";
import type { Channel } from "~/.server/providers/messaging";
import { resendAvailableAt, verifyCode, type CodeSubject, type IssueResult } from "~/.server/services/codes";
import { codeRefusalMessage } from "./guess-messages.server";
import type { InternalTarget } from "./redirects.server";
import { redirectWithFlash } from "./request.server";

/**
 * The one-time-code step (decision 0022; spec 001 §4 one-time code and pending change, §5 "Codes";
 * 000 §4 "Reveal"): the sign-in's second factor, a card's reveal and an e-mail or phone change all show,
 * check, resend and cancel their code here, with the same state, limits, timing and words. A feature
 * says whose code it is and for what, how a code is sent, and what happens once it is right.
 */
export interface CodeStep {
  /** Whose code, for what, on what (services/codes.ts). */
  subject: CodeSubject;
  /** Where codes go: the "new code sent" message names it. */
  channel: Channel;
  /** The step's page: a resend comes back to it, with its message. */
  here: InternalTarget;
  /** Sends a new code (to where, in which words: the feature's). */
  send(): Promise<IssueResult>;
  /** The feature's one say once the code is right: sign in, show the card, apply the change. */
  verified(): Promise<Response>;
  /** Giving up, when the feature offers it (then the page shows a cancel button). */
  cancelled?(): Promise<Response>;
}

/** What the step's page shows of the code itself: when a new one can be asked for. */
export async function codeStepScreen(step: CodeStep): Promise<CodeStepScreen> {
  const { db } = await getPlatform();
  const resendAt = await resendAvailableAt(db, step.subject);
  return { resendAt: resendAt?.toISOString() ?? null };
}

const RESENT: Record<Channel, string> = { email: "auth.code.resentEmail", sms: "auth.code.resentSms" };

/** The buttons that carry no field: parsed only to answer in the form's contract. */
const noFields = z.object({});

/**
 * Handles the step's buttons. A refusal is conform's reply with the code hidden (it never comes back),
 * 400 — or 429 for a new code asked within 60 s (spec 001 §8), the wait being said on the page. A new
 * code sent, a right code or a cancel leave by a redirect (post-redirect-get), with a message.
 */
export async function codeStepAction(request: Request, step: CodeStep, form: FormData) {
  const intent = form.get("intent");
  switch (intent as CodeStepIntent) {
    case "verify": {
      const submission = parseWithZod(form, { schema: codeSchema });
      if (submission.status !== "success") return data({ lastResult: submission.reply({ hideFields: ["code"] }) }, { status: 400 });
      const { db } = await getPlatform();
      const result = await verifyCode(db, step.subject, submission.value.code);
      if (result.kind !== "ok") {
        return data({ lastResult: submission.reply({ fieldErrors: { code: [codeRefusalMessage(result)] }, hideFields: ["code"] }) }, { status: 400 });
      }
      return step.verified();
    }
    case "resend": {
      const result = await step.send();
      if (result.kind === "throttled") {
        const submission = parseWithZod(form, { schema: noFields });
        return data({ lastResult: submission.reply({ fieldErrors: { resend: ["errors.tooManyRequests"] }, hideFields: ["code"] }) }, { status: 429 });
      }
      return redirectWithFlash(request, step.here, { kind: "success", message: RESENT[step.channel] });
    }
    case "cancel":
      if (step.cancelled) return step.cancelled();
      break;
  }
  const submission = parseWithZod(form, { schema: noFields });
  return data({ lastResult: submission.reply({ formErrors: ["errors.unknownIntent"], hideFields: ["code"] }) }, { status: 400 });
}
