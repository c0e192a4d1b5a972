import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "~/i18n";
import type { CeremonyOutcome } from "./passkey-ceremony";
import { useHydrated } from "./useHydrated";

type Failure = Extract<CeremonyOutcome, { failure: string }>;

/**
 * Runs one passkey ceremony against a feature's resource route (Contract P2, decision 0061): its options,
 * the browser's prompt (the phone's unlock), the answer checked by the server, then React Router follows
 * the feature's redirect. WebAuthn needs a script, so nothing is shown before hydration nor in a browser
 * without it: every page keeps its code path (issue 32 §5). The ceremony and `@simplewebauthn/browser` are
 * loaded on the click only (./passkey-ceremony.ts), so a page showing the button carries almost nothing of
 * it (the /login budget of 130 KB).
 */
export function PasskeyButton({
  action,
  ceremony,
  label,
  fields,
  variant = "primary",
}: {
  action: string;
  ceremony: "register" | "authenticate";
  label: string;
  fields?: () => Record<string, string>;
  variant?: "primary" | "secondary";
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const [working, setWorking] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const alert = useRef<HTMLParagraphElement>(null);
  // The message is read out and the keyboard lands on it, as on a form's error summary.
  useEffect(() => {
    if (failure) alert.current?.focus();
  }, [failure]);
  if (!hydrated || typeof window.PublicKeyCredential === "undefined") return null;

  async function onClick() {
    if (working) return;
    setWorking(true);
    setFailure(null);
    // The ceremony's own script not loading (the network gone) is said as the network's failure.
    const outcome: CeremonyOutcome = await import("./passkey-ceremony").then(
      (loaded) => loaded.runPasskeyCeremony(action, ceremony, fields?.() ?? {}),
      () => ({ failure: "passkeys.errors.network" }),
    );
    if ("to" in outcome) await navigate(outcome.to);
    else setFailure(outcome);
    setWorking(false);
  }

  // The account's guesses wait (decision 0014): said in minutes, as the code step says it.
  const wait =
    failure?.minutes === 1 ? t("errors.guessWait.one") : t("errors.guessWait.other", { count: failure?.minutes });
  return (
    <div className="passkey">
      <button
        type="button"
        className={variant === "secondary" ? "button button--secondary passkey__button" : "button passkey__button"}
        aria-busy={working}
        onClick={() => void onClick()}
      >
        <svg className="passkey__icon" aria-hidden="true" viewBox="0 0 24 24" width="20" height="20">
          <circle cx="8" cy="8" r="4" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M11 11l9 9m-4-4l2-2m-4 0l2-2" fill="none" stroke="currentColor" strokeWidth="2" />
        </svg>
        {working ? t("passkeys.button.working") : label}
      </button>
      {failure && (
        <p className="passkey__error" role="alert" tabIndex={-1} ref={alert}>
          {t(failure.failure, { wait })}
        </p>
      )}
    </div>
  );
}
