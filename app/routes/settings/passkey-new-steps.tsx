import { lazy, Suspense, type ComponentProps } from "react";
import { Form, href } from "react-router";
import { useTranslation } from "~/i18n";
import { Field, useForm } from "~/components/forms";
import { useHydrated } from "~/components/useHydrated";
import { LightVersionNote, NoScript } from "~/components/LightVersion";

/**
 * The confirm and add steps of adding a passkey (passkey-new.tsx), in a file of their own (decision 0080): the
 * security page and its other panels never load them; the panel asks for this file as soon as its script runs
 * on either step, and the server renders the step whole. The passkey button, drawn only once hydrated, comes
 * with its own file when it is drawn.
 */

const CEREMONY = href("/settings/security/passkeys/ceremony");

const PasskeyButtonPart = lazy(() =>
  import("~/components/PasskeyButton").then(({ PasskeyButton }) => ({ default: PasskeyButton })),
);

/** The button in a Suspense of its own: the step around it stays while its file comes. */
function PasskeyButton(props: ComponentProps<typeof PasskeyButtonPart>) {
  return (
    <Suspense>
      <PasskeyButtonPart {...props} />
    </Suspense>
  );
}

/** Whether this page can run a WebAuthn ceremony: hydrated, in a browser that has WebAuthn. */
function useWebAuthn(): boolean {
  const hydrated = useHydrated();
  return hydrated && typeof window.PublicKeyCredential !== "undefined";
}

export function ConfirmStep({
  destination,
  hasPasskeys,
  full,
  sendIntent,
}: {
  destination: string;
  hasPasskeys: boolean;
  full: boolean;
  /** The route's intent for sending the code. */
  sendIntent: string;
}) {
  const { t } = useTranslation();
  const webAuthn = useWebAuthn();
  if (full) return <p className="alert alert--warning">{t("passkeys.errors.tooMany")}</p>;
  return (
    <>
      <p>{t("passkeys.settings.new.confirmIntro")}</p>
      <Form method="post" className="actions" preventScrollReset>
        <button type="submit" name="intent" value={sendIntent} className="button">
          {t("passkeys.settings.new.send", { destination })}
        </button>
      </Form>
      {hasPasskeys && webAuthn ? (
        <div className="passkey-confirm">
          <p>{t("passkeys.settings.new.orPasskey")}</p>
          <PasskeyButton
            action={CEREMONY}
            ceremony="authenticate"
            label={t("passkeys.settings.new.confirmWithPasskey")}
            fields={() => ({ for: "confirm" })}
            variant="secondary"
          />
        </div>
      ) : null}
    </>
  );
}

/** The name (prefilled after the device), then the browser's prompt; without WebAuthn, why not. */
export function AddStep({ defaultName }: { defaultName: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const webAuthn = useWebAuthn();
  const [, fields] = useForm<{ name: string }>({ id: "passkey-name", defaultValue: { name: defaultName } });
  // Read when the button is pressed: the name goes with both of the ceremony's posts and is checked by the server.
  const nameOf = () => (document.getElementById(fields.name.id) as HTMLInputElement | null)?.value ?? "";
  return (
    <>
      <Field
        required
        field={fields.name}
        label={t("passkeys.settings.new.nameLabel")}
        hint={t("passkeys.settings.new.nameHint")}
        autoComplete="off"
      />
      {webAuthn ? (
        <>
          <p>{t("passkeys.settings.new.createIntro")}</p>
          <PasskeyButton
            action={CEREMONY}
            ceremony="register"
            label={t("passkeys.settings.new.create")}
            fields={() => ({ for: "register", name: nameOf() })}
          />
        </>
      ) : hydrated ? (
        <p className="alert alert--warning">{t("passkeys.settings.unsupported")}</p>
      ) : (
        <NoScript>
          <p className="alert alert--warning">{t("passkeys.settings.new.needsJs")}</p>
          <LightVersionNote className="hint" />
        </NoScript>
      )}
    </>
  );
}
