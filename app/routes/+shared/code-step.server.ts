import { data } from "react-router";
import { z } from "zod";
import { codeSchema } from "~/domain/schemas";
import { getPlatform } from "~/.server/platform";
import type { Channel } from "~/.server/providers/messaging";
import { resendAvailableAt, verifyCode, type CodeSubject, type IssueResult } from "~/.server/services/codes";
import { CODE_STEP_INTENT, type CodeStepScreen } from "./code-step";
import { parseForm, refuse, reply } from "./forms.server";
import { codeRefusalMessage } from "./guess-messages.server";
import { intentOf, unknownIntent } from "./intents.server";
import type { InternalTarget } from "./redirects.server";
import { redirectWithFlash } from "./request.server";
import { codeSentFlash } from "./code-sent.server";

/**
 * The one-time-code step (decision 0022; spec 001 §4 one-time code and pending change, §5 "Codes", §8;
 * 000 §4 "Reveal"): the sign-in's second factor, a card's reveal and an e-mail or phone change all show,
 * check, resend and cancel their code here, with the same state, limits, timing and words. A feature
 * says whose code it is and for what, how a code is sent, and what happens once it is right.
 */
export interface CodeStep {
  /** Whose code, for what, on what (services/codes.ts). */
  subject: CodeSubject;
  /** Where codes go: the "new code sent" message names it. */
  channel: Channel;
  /** The step's page: a new code sent comes back to it, with its message. */
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

/** The code never comes back in a reply, whatever the button. */
const CODE_SECRETS = ["code"];

/**
 * Handles the step's buttons (an unknown one: the 400 error page, as everywhere). A refused code is
 * conform's reply, 400, without the code; a new code asked within 60 s is the same reply with 429 (spec
 * 001 §8), the wait being said on the page. A new code sent, a right code or a cancel leave by a redirect
 * (post-redirect-get) with their message.
 */
export async function codeStepAction(request: Request, step: CodeStep, form: FormData) {
  switch (intentOf(form, CODE_STEP_INTENT)) {
    case CODE_STEP_INTENT.verify: {
      const submission = parseForm(form, codeSchema);
      if (submission.status !== "success") return refuse(submission, { hideFields: CODE_SECRETS });
      const { db } = await getPlatform();
      const result = await verifyCode(db, step.subject, submission.value.code);
      if (result.kind !== "ok")
        return refuse(submission, { fieldErrors: { code: [codeRefusalMessage(result)] }, hideFields: CODE_SECRETS });
      return step.verified();
    }
    case CODE_STEP_INTENT.resend: {
      const result = await step.send();
      if (result.kind === "throttled") {
        const submission = parseForm(form, z.object({}));
        return data(
          reply(submission, { fieldErrors: { resend: ["errors.tooManyRequests"] }, hideFields: CODE_SECRETS }),
          { status: 429 },
        );
      }
      return redirectWithFlash(request, step.here, codeSentFlash(result, RESENT[step.channel])!);
    }
    case CODE_STEP_INTENT.cancel:
      if (!step.cancelled) throw unknownIntent();
      return step.cancelled();
  }
}
