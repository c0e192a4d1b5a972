import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useRef, useState } from "react";
import { useTranslation } from "~/i18n";
import { data, Form, Link } from "react-router";
import type { Route } from "./+types/reveal";
import { ErrorSummary, type SummaryError } from "~/components/ErrorSummary";
import { useHydrated } from "~/components/useHydrated";
import { Panel } from "~/components/Panel";
import { OneTimeCodeForms } from "~/components/OneTimeCodeForms";
import { codeSchema, type CodeForm } from "~/domain/schemas";
import { accountContext } from "~/routes/+shared/auth.server";
import { requireActiveCard } from "~/routes/+shared/guards.server";
import { getInstance } from "~/middleware/i18next";
import { getPlatform } from "~/.server/platform";
import { badRequest, commitSession, getSession } from "~/routes/+shared/request.server";
import { codeDestination, maskDestination } from "~/.server/services/accounts";
import { openRevealSession, revealKindFor } from "~/.server/services/card-actions";
import { issueCode, resendAvailableAt, verifyCode } from "~/.server/services/codes";
import { verifyErrorMessage } from "~/routes/+shared/guess-messages.server";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";

/**
 * Reveal a virtual card's number, expiry and CVC, or a physical card's PIN (spec 000 §2 "Card reveal
 * panel", §4 "Reveal"; 001 §4 one-time code). Steps in the URL: ask → code → show. A valid code grants
 * one reveal, kept in the session for 5 minutes; the secret itself is shown by the issuer, never by us.
 */
const GRANT_TTL_MS = 5 * 60 * 1000;
type Step = "ask" | "code" | "show";
const stepOf = (url: URL): Step => {
  const step = url.searchParams.get("step");
  return step === "code" || step === "show" ? step : "ask";
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const card = await requireActiveCard(request, context, params.cardId);
  const account = context.get(accountContext);
  const kind = revealKindFor(card.type);
  const { db, issuer } = await getPlatform();
  const step = stepOf(new URL(request.url));
  const { channel, destination } = codeDestination(account);
  const base = { cardId: card.id, kind, step, channel, destination: maskDestination(channel, destination) };
  const noStore = { "Cache-Control": "no-store" };

  if (step === "code") {
    const resendAt = await resendAvailableAt(db, account.id, "reveal");
    return data({ ...base, resendAt: resendAt && resendAt > new Date() ? resendAt.toISOString() : null, reveal: null, failed: false }, { headers: noStore });
  }
  if (step === "show") {
    const session = await getSession(request);
    const grant = session.get("revealGrant");
    // One grant, one reveal: a reload asks for a new code.
    session.unset("revealGrant");
    const headers = new Headers({ ...noStore, "Set-Cookie": await commitSession(session) });
    if (!grant || grant.cardId !== card.id || grant.kind !== kind || grant.expiresAt <= new Date().toISOString()) {
      throw internalRedirect(internalPath("/cards/:cardId/reveal", { cardId: card.id }), { headers });
    }
    const result = await openRevealSession(db, issuer, account.id, card.id, kind, crypto.randomUUID());
    const reveal = typeof result === "string" ? null : result;
    return data({ ...base, resendAt: null, reveal, failed: reveal === null }, { headers });
  }
  return data({ ...base, resendAt: null, reveal: null, failed: false }, { headers: noStore });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const card = await requireActiveCard(request, context, params.cardId);
  const account = context.get(accountContext);
  const { db, messenger } = await getPlatform();
  const form = await request.formData();
  const intent = form.get("intent");
  const at = (step: "code" | "show") => internalPath("/cards/:cardId/reveal", { cardId: card.id }, { search: { step } });

  if (intent === "send") {
    const t = getInstance(context).t;
    const { channel, destination } = codeDestination(account);
    const result = await issueCode(db, messenger, {
      userId: account.id,
      purpose: "reveal",
      channel,
      destination,
      message: { subject: t("cards.reveal.messageSubject"), text: (code) => t("cards.reveal.messageText", { code }) },
    });
    if (result.status === "throttled" && form.get("from") === "code") {
      return data({ lastResult: null, throttled: true, attempt: "" }, { status: 429 });
    }
    // A code still valid was sent less than a minute ago: the user goes on with that one.
    return internalRedirect(at("code"));
  }
  if (intent !== "verify") return badRequest({ lastResult: null, throttled: false, attempt: "", unknownIntent: true });

  const submission = parseWithZod(form, { schema: codeSchema });
  if (submission.status !== "success") return badRequest({ lastResult: submission.reply(), throttled: false, attempt: crypto.randomUUID() });
  const verdict = await verifyCode(db, { userId: account.id, purpose: "reveal", code: submission.value.code });
  if (verdict !== "ok") {
    return badRequest({ lastResult: submission.reply({ fieldErrors: { code: [await verifyErrorMessage(db, account.id, verdict)] }, hideFields: ["code"] }), throttled: false, attempt: crypto.randomUUID() });
  }
  const session = await getSession(request);
  session.set("revealGrant", { cardId: card.id, kind: revealKindFor(card.type), expiresAt: new Date(Date.now() + GRANT_TTL_MS).toISOString() });
  return internalRedirect(at("show"), { headers: { "Set-Cookie": await commitSession(session) } });
}

function CopyButton({ frame }: { frame: React.RefObject<HTMLIFrameElement | null> }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const hydrated = useHydrated();
  if (!hydrated) return null;
  const copy = async () => {
    // The sandbox issuer's document is same-origin; a real issuer's elements bring their own copy button.
    const text = frame.current?.contentDocument?.getElementById("card-number")?.textContent?.replace(/\s/g, "");
    if (!text) return;
    await navigator.clipboard.writeText(text);
    setCopied(true);
  };
  return (
    <p className="actions">
      <button type="button" className="button button--secondary" onClick={() => void copy()}>
        {t("cards.reveal.copy")}
      </button>
      <span role="status">{copied ? t("cards.reveal.copied") : ""}</span>
    </p>
  );
}

export default function RevealPanel({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const frame = useRef<HTMLIFrameElement>(null);
  const { cardId, kind, step } = loaderData;
  const [form, fields] = useForm<CodeForm>({
    id: "reveal-code",
    lastResult: actionData?.lastResult,
  });
  const errors: SummaryError[] = (fields.code.errors ?? []).map((message) => ({ fieldId: fields.code.id, message }));
  if (actionData?.throttled) errors.push({ fieldId: "reveal-resend", message: "errors.tooManyRequests" });
  if (actionData && "unknownIntent" in actionData) errors.push({ fieldId: fields.code.id, message: "errors.unknownIntent" });
  const title = t(kind === "pin" ? "cards.reveal.pinTitle" : "cards.reveal.detailsTitle");
  const via = t(loaderData.channel === "sms" ? "auth.code.introSms" : "auth.code.introEmail");

  return (
    <Panel id="reveal" title={title} closeTo={`/cards/${cardId}`} error={errors.length > 0}>
      <ErrorSummary errors={errors} />
      {step === "ask" ? (
        <>
          <p>{t(kind === "pin" ? "cards.reveal.askPin" : "cards.reveal.askDetails")}</p>
          <Form method="post" preventScrollReset>
            <button type="submit" name="intent" value="send" className="button">
              {t("cards.reveal.send", { destination: `${loaderData.destination} (${via})` })}
            </button>
          </Form>
        </>
      ) : null}
      {step === "code" ? (
        <>
          <p>{t("auth.code.intro", { destination: `${loaderData.destination} (${via})` })}</p>
          <OneTimeCodeForms
            formProps={getFormProps(form)}
            field={{ id: fields.code.id, name: fields.code.name, error: fields.code.errors?.[0] }}
            attempt={actionData?.attempt ?? ""}
            submitLabel={t("cards.reveal.verify")}
            resend={{ id: "reveal-resend", intent: "send", availableAt: loaderData.resendAt, hidden: { from: "code" } }}
            preventScrollReset
          />
        </>
      ) : null}
      {step === "show" ? (
        loaderData.reveal?.kind === "document" ? (
          <>
            <p>{t("cards.reveal.shown")}</p>
            <iframe ref={frame} className="reveal-frame" src={loaderData.reveal.url} title={title} referrerPolicy="no-referrer" />
            {kind === "details" ? <CopyButton frame={frame} /> : null}
            <p className="hint">{t("cards.reveal.private")}</p>
          </>
        ) : loaderData.reveal?.kind === "elements" ? (
          <p className="alert alert--warning">{t("cards.reveal.needsJs")}</p>
        ) : (
          <div className="alert alert--warning" role="alert">
            <p>{t("cards.reveal.failed")}</p>
          </div>
        )
      ) : null}
      <p>
        <Link to={`/cards/${cardId}`} className="link-action">
          {t("app.close")}
        </Link>
      </p>
    </Panel>
  );
}
