import { useTranslation } from "~/i18n";

/**
 * "I accept the terms and the privacy policy" with both texts one click away (onboarding, activation,
 * profile). Once accepted on the profile it is shown ticked and locked: acceptance cannot be taken back here.
 */
export function TermsField({
  id,
  error,
  defaultChecked,
  locked = false,
  legalUrl,
  privacyUrl,
}: {
  id: string;
  error?: string;
  defaultChecked?: boolean;
  locked?: boolean;
  legalUrl: string;
  privacyUrl: string;
}) {
  const { t } = useTranslation();
  const errorId = `${id}-error`;
  return (
    <div className={`field field--checkbox${error ? " field--error" : ""}`}>
      {error ? (
        <p className="field__error" id={errorId}>
          <span className="visually-hidden">{t("errors.prefix")}</span>
          {t(error)}
        </p>
      ) : null}
      <label className="checkbox">
        <input
          type="checkbox"
          id={id}
          name="terms"
          defaultChecked={locked || defaultChecked}
          disabled={locked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        {t("onboarding.profile.terms")}
      </label>
      <ul className="inline-links">
        <li>
          <a href={legalUrl} target="_blank" rel="noopener noreferrer">
            {t("onboarding.profile.readTerms")} <span className="visually-hidden">{t("userMenu.newTab")}</span>
          </a>
        </li>
        <li>
          <a href={privacyUrl} target="_blank" rel="noopener noreferrer">
            {t("onboarding.profile.readPrivacy")} <span className="visually-hidden">{t("userMenu.newTab")}</span>
          </a>
        </li>
      </ul>
    </div>
  );
}
