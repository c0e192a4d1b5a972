import { lazy, Suspense, useEffect, useId, useRef, useState, type ComponentProps, type ComponentType } from "react";
import { useTranslation } from "~/i18n";
import { data, Form, href, Link, type RouterContextProvider } from "react-router";
import type { Route } from "./+types/reveal";
import type { PasskeyButton as PasskeyButtonComponent } from "~/components/PasskeyButton";
import { useHydrated } from "~/components/useHydrated";
import { useFrameFocus } from "~/components/useFrameFocus";
import { Panel } from "~/components/Panel";
import { accountContext } from "~/routes/+shared/auth.server";
import { CODE_STEP_INTENTS, codeStepFailed } from "~/routes/+shared/code-step";
import { codeStepAction, codeStepScreen, type CodeStep as CodeStepFlow } from "~/routes/+shared/code-step.server";
import { codeSentFlash } from "~/routes/+shared/code-sent.server";
import { intents } from "~/routes/+shared/intents";
import { intentOf } from "~/routes/+shared/intents.server";
import { requireActiveCard } from "~/routes/+shared/guards.server";
import { getInstance } from "~/i18n/i18next.server";
import { getPlatform } from "~/.server/platform";
import { commitSession, getSession, redirectWithFlash } from "~/routes/+shared/request.server";
import { grantReveal, revealStepPath as stepPath } from "./reveal-grant.server";
import { codeDestination, maskDestination, type Account } from "~/.server/services/accounts";
import { browserRevealTarget, openRevealSession, revealKindFor } from "~/.server/services/card-actions";
import { grantsReveal } from "~/.server/session";
import type { StripeIssuingReveal as StripeIssuingRevealComponent } from "~/components/StripeIssuingReveal";
import { LightVersionNote } from "~/components/LightVersion";
import type { CardDetail } from "~/.server/services/cards";
import { issueCode } from "~/.server/services/codes";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";
import { shownFromThisSite } from "~/routes/+shared/same-site.server";

/*
 * The code step's form (conform and the form components, about 13 KB gzip) travels with that step only: the
 * first and last steps, and a reveal with a passkey, never need it (decision 0074). The server renders it
 * whole, so the page is the same without JavaScript; with it, the step's form hydrates once its file arrives.
 */
const CodeStep = lazy(() => import("~/components/CodeStep").then(({ CodeStep }) => ({ default: CodeStep })));

/** Its file not loading is said as Stripe.js not loading (StripeIssuingReveal's own words for that failure). */
function StripeRevealUnavailable() {
  const { t } = useTranslation();
  return (
    <div className="alert alert--warning" role="alert">
      <p>{t("cards.reveal.elements.loadFailed")}</p>
    </div>
  );
}

/* Stripe Issuing's reveal runs in the browser only (the server says it needs JavaScript): its code comes with it. */
const StripeIssuingReveal = lazy<ComponentType<ComponentProps<typeof StripeIssuingRevealComponent>>>(() =>
  import("~/components/StripeIssuingReveal").then(
    ({ StripeIssuingReveal }) => ({ default: StripeIssuingReveal }),
    () => ({ default: StripeRevealUnavailable }),
  ),
);

/**
 * Reveal a virtual card's number, expiry and CVC, or a physical card's PIN (spec 000 §2 "Card reveal
 * panel", §4 "Reveal"; 001 §4 one-time code). Steps in the URL: ask → code → show. A valid code — or, with
 * JavaScript and a passkey, the phone's unlock (reveal-passkey.ts, issue 32 item 3) — grants one reveal,
 * kept in the session for 5 minutes (reveal-grant.server.ts); the secret itself is shown by the issuer,
 * never by us.
 */
type Step = "ask" | "code" | "show";
const stepOf = (url: URL): Step => {
  const step = url.searchParams.get("step");
  return step === "code" || step === "show" ? step : "ask";
};
/** The panel's buttons: the ask step's, then the code step's. */
const INTENT = intents("send", ...CODE_STEP_INTENTS);

/** The reveal's code: for this card, sent where the account's codes go; once right, one reveal is granted. */
function revealCodeStep(
  request: Request,
  context: Readonly<RouterContextProvider>,
  account: Account,
  card: CardDetail,
): CodeStepFlow {
  const { channel, destination } = codeDestination(account);
  const subject = { userId: account.id, purpose: "reveal", target: card.id } as const;
  return {
    subject,
    channel,
    here: stepPath(card.id, "code"),
    send: async () => {
      const { db, messenger } = await getPlatform();
      const t = getInstance(context).t;
      const message = {
        subject: t("cards.reveal.messageSubject"),
        text: (code: string) => t("cards.reveal.messageText", { code }),
      };
      return issueCode(db, messenger, { subject, channel, destination, message });
    },
    verified: () => grantReveal(request, card),
  };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const card = await requireActiveCard(request, context, params.cardId);
  const account = context.get(accountContext);
  const kind = revealKindFor(card.type);
  const { db, issuer } = await getPlatform();
  const step = stepOf(new URL(request.url));
  const { channel, destination } = codeDestination(account);
  const masked = maskDestination(channel, destination);
  const base = { cardId: card.id, kind, step, channel, destination: masked, hasPasskeys: account.hasPasskeys };
  const noStore = { "Cache-Control": "no-store" };

  if (step === "code") {
    const { resendAt } = await codeStepScreen(revealCodeStep(request, context, account, card));
    return data({ ...base, resendAt, reveal: null, inBrowser: null, failed: false }, { headers: noStore });
  }
  if (step === "show") {
    // A link from another site neither spends the grant nor opens a reveal at the issuer (decision 0048).
    if (!shownFromThisSite(request))
      throw internalRedirect(internalPath("/cards/:cardId/reveal", { cardId: card.id }), { headers: noStore });
    const session = await getSession(request);
    const grant = session.get("revealGrant");
    // Stripe Issuing draws the secret in the browser: the grant is spent when the browser's nonce gets its key (reveal-key.ts).
    const inBrowser = grantsReveal(grant, card.id, kind)
      ? await browserRevealTarget(db, issuer, account.id, card.id, kind)
      : null;
    // One grant, one reveal: a reload asks for a new code.
    if (!inBrowser) session.unset("revealGrant");
    const headers = new Headers({ ...noStore, "Set-Cookie": await commitSession(session) });
    if (!grantsReveal(grant, card.id, kind)) {
      throw internalRedirect(internalPath("/cards/:cardId/reveal", { cardId: card.id }), { headers });
    }
    if (inBrowser) return data({ ...base, resendAt: null, reveal: null, inBrowser, failed: false }, { headers });
    const result = await openRevealSession(db, issuer, account.id, card.id, kind, crypto.randomUUID());
    const reveal = result.kind === "document" || result.kind === "elements" ? result : null;
    return data({ ...base, resendAt: null, reveal, inBrowser: null, failed: reveal === null }, { headers });
  }
  return data({ ...base, resendAt: null, reveal: null, inBrowser: null, failed: false }, { headers: noStore });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const card = await requireActiveCard(request, context, params.cardId);
  const step = revealCodeStep(request, context, context.get(accountContext), card);
  const form = await request.formData();
  switch (intentOf(form, INTENT)) {
    case INTENT.send: {
      // Asked again within a minute, the code already sent stands: the person goes on with that one.
      const flash = codeSentFlash(await step.send());
      if (!flash) return internalRedirect(stepPath(card.id, "code"));
      return redirectWithFlash(request, stepPath(card.id, "code"), flash);
    }
    default:
      return codeStepAction(request, step, form);
  }
}

/**
 * The passkey button, once this browser can use it for an account that has a passkey: its file is loaded then, so
 * that the panel carries none of it for everyone else (decision 0074). Until it has loaded — or if it cannot — the
 * step stays the code's, which always works.
 */
function usePasskeyButton(wanted: boolean): { Button: typeof PasskeyButtonComponent } | null {
  const [loaded, setLoaded] = useState<{ Button: typeof PasskeyButtonComponent } | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let current = true;
    import("~/components/PasskeyButton").then(
      ({ PasskeyButton }) => current && setLoaded({ Button: PasskeyButton }),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [wanted]);
  return wanted ? loaded : null;
}

/**
 * The ask step. With a passkey on the account and a browser that can use it, the phone's unlock comes first and
 * the code is the other way (issue 32 item 3); WebAuthn needs a script, so until the page is hydrated — and
 * always without JavaScript or in the light version, which has none — the step is the code's alone, as before.
 */
function AskStep({
  cardId,
  kind,
  hasPasskeys,
  destination,
}: {
  cardId: string;
  kind: "details" | "pin";
  hasPasskeys: boolean;
  destination: string;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const hintId = useId();
  const passkey = usePasskeyButton(hydrated && hasPasskeys && typeof window.PublicKeyCredential !== "undefined");
  if (!passkey) {
    return (
      <>
        <p>{t(kind === "pin" ? "cards.reveal.askPin" : "cards.reveal.askDetails")}</p>
        <Form method="post" preventScrollReset>
          <button type="submit" name="intent" value={INTENT.send} className="button">
            {t("cards.reveal.send", { destination })}
          </button>
        </Form>
      </>
    );
  }
  return (
    <>
      <p>{t(kind === "pin" ? "passkeys.reveal.askPin" : "passkeys.reveal.askDetails")}</p>
      <passkey.Button
        action={href("/cards/:cardId/reveal/passkey", { cardId })}
        ceremony="authenticate"
        label={t("passkeys.reveal.show")}
      />
      <Form method="post" preventScrollReset className="passkey-alternative">
        <button
          type="submit"
          name="intent"
          value={INTENT.send}
          className="button button--secondary"
          aria-describedby={hintId}
        >
          {t("passkeys.reveal.useCode")}
        </button>
        <p id={hintId} className="hint">
          {t("passkeys.reveal.codeHint", { destination })}
        </p>
      </Form>
    </>
  );
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
  const hydrated = useHydrated();
  const frame = useRef<HTMLIFrameElement>(null);
  const shown = useRef<HTMLDivElement>(null);
  useFrameFocus(shown);
  const { cardId, kind, step } = loaderData;
  const title = t(kind === "pin" ? "cards.reveal.pinTitle" : "cards.reveal.detailsTitle");
  const via = t(loaderData.channel === "sms" ? "auth.code.introSms" : "auth.code.introEmail");
  const destination = `${loaderData.destination} (${via})`;

  return (
    <Panel id="reveal" title={title} closeTo={href("/cards/:cardId", { cardId })} error={codeStepFailed(actionData)}>
      {/* Around every step: moving to the code step keeps the asking step shown until the code's form has loaded. */}
      <Suspense>
        {step === "ask" ? (
          <AskStep cardId={cardId} kind={kind} hasPasskeys={loaderData.hasPasskeys} destination={destination} />
        ) : null}
        {step === "code" ? (
          <CodeStep
            formId="reveal-code"
            actionData={actionData}
            screen={loaderData}
            submitLabel={t("cards.reveal.verify")}
            preventScrollReset
          >
            <p>{t("auth.code.intro", { destination })}</p>
          </CodeStep>
        ) : null}
        {step === "show" ? (
          <div ref={shown}>
            {loaderData.reveal?.kind === "document" ? (
              <>
                <p>{t("cards.reveal.shown")}</p>
                <iframe
                  ref={frame}
                  className="reveal-frame"
                  // Without JavaScript no focus ring can be drawn on it (useFrameFocus): its text is read, not tabbed to.
                  tabIndex={hydrated ? undefined : -1}
                  src={loaderData.reveal.url}
                  title={title}
                  referrerPolicy="no-referrer"
                />
                {kind === "details" ? <CopyButton frame={frame} /> : null}
                <p className="hint">{t("cards.reveal.private")}</p>
              </>
            ) : loaderData.inBrowser ? (
              <>
                <p>{t("cards.reveal.shown")}</p>
                {hydrated ? (
                  <Suspense fallback={<p className="hint">{t("cards.reveal.elements.loading")}</p>}>
                    <StripeIssuingReveal
                      {...loaderData.inBrowser}
                      kind={kind}
                      keyUrl={href("/cards/:cardId/reveal/key", { cardId })}
                    />
                  </Suspense>
                ) : (
                  <>
                    <p className="alert alert--warning">{t("cards.reveal.needsJs")}</p>
                    <LightVersionNote className="hint" />
                  </>
                )}
                <p className="hint">{t("cards.reveal.private")}</p>
              </>
            ) : (
              <div className="alert alert--warning" role="alert">
                <p>{t("cards.reveal.failed")}</p>
              </div>
            )}
          </div>
        ) : null}
      </Suspense>
      <p>
        <Link to={href("/cards/:cardId", { cardId })} className="link-action">
          {t("app.close")}
        </Link>
      </p>
    </Panel>
  );
}
