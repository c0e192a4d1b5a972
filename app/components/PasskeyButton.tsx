import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "~/i18n";
import { useHydrated } from "./useHydrated";

/** What a passkey resource route answers (Contract P2, app/routes/+shared/passkey-ceremony.server.ts). */
interface CeremonyAnswer {
  options?: unknown;
  to?: string;
  error?: string;
  retryAt?: string;
}

/** A step of the ceremony that went wrong, with the catalogue key saying so. */
class CeremonyFailure extends Error {
  constructor(
    readonly key: string,
    readonly retryAt?: string,
  ) {
    super(key);
  }
}

async function post(action: string, fields: Record<string, string>): Promise<CeremonyAnswer> {
  const response = await fetch(action, {
    method: "POST",
    credentials: "same-origin",
    headers: { Accept: "application/json" },
    body: new URLSearchParams(fields),
  }).catch(() => null);
  if (!response) throw new CeremonyFailure("passkeys.errors.network");
  const answer = (await response.json().catch(() => null)) as CeremonyAnswer | null;
  if (answer && typeof answer.error === "string") throw new CeremonyFailure(answer.error, answer.retryAt);
  if (!response.ok || !answer) throw new CeremonyFailure("passkeys.button.failed");
  return answer;
}

/** The browser's own errors: the person closing its prompt is said apart from the rest. */
function browserFailure(error: unknown): CeremonyFailure {
  if (error instanceof CeremonyFailure) return error;
  const name = error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || name === "AbortError") return new CeremonyFailure("passkeys.errors.cancelled");
  if (name === "InvalidStateError") return new CeremonyFailure("passkeys.errors.duplicate");
  return new CeremonyFailure("passkeys.button.failed");
}

/**
 * Runs one passkey ceremony against a feature's resource route (Contract P2, decision 0061): its options,
 * the browser's prompt (the phone's unlock), the answer checked by the server, then React Router follows
 * the feature's redirect. WebAuthn needs a script, so nothing is shown before hydration nor in a browser
 * without it: every page keeps its code path (issue 32 §5). `@simplewebauthn/browser` is loaded on the
 * click only, so a page showing the button carries none of it (the /login budget of 130 KB).
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
  const [failure, setFailure] = useState<{ key: string; wait: string } | null>(null);
  const alert = useRef<HTMLParagraphElement>(null);
  // The message is read out and the keyboard lands on it, as on a form's error summary.
  useEffect(() => {
    if (failure) alert.current?.focus();
  }, [failure]);
  if (!hydrated || typeof window.PublicKeyCredential === "undefined") return null;

  async function run() {
    const extra = fields?.() ?? {};
    const { options, to: elsewhere } = await post(action, { ...extra, step: "options" });
    // The feature sent the person elsewhere (the waiting sign-in expired): followed as a success is.
    if (typeof elsewhere === "string") return navigate(elsewhere);
    const webauthn = await import("@simplewebauthn/browser");
    const answer =
      ceremony === "register"
        ? await webauthn.startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON })
        : await webauthn.startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON });
    const { to } = await post(action, { ...extra, step: "verify", answer: JSON.stringify(answer) });
    if (typeof to !== "string") throw new CeremonyFailure("passkeys.button.failed");
    await navigate(to);
  }

  async function onClick() {
    if (working) return;
    setWorking(true);
    setFailure(null);
    try {
      await run();
    } catch (error) {
      const failed = browserFailure(error);
      // The account's guesses wait (decision 0014): said in minutes, as the code step says it.
      const minutes = failed.retryAt
        ? Math.max(1, Math.ceil((new Date(failed.retryAt).getTime() - Date.now()) / 60_000))
        : 0;
      const wait = minutes === 1 ? t("errors.guessWait.one") : t("errors.guessWait.other", { count: minutes });
      setFailure({ key: failed.key, wait });
    } finally {
      setWorking(false);
    }
  }

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
          {t(failure.key, { wait: failure.wait })}
        </p>
      )}
    </div>
  );
}
