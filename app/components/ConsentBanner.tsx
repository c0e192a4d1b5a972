import { href, useLocation } from "react-router";
import { useTranslation } from "~/i18n";
import { CONSENT_INTENT, CONSENT_RETURN_FIELD } from "~/domain/consent";
import { INTENT_FIELD } from "~/routes/+shared/intents";
import { AppLink } from "~/components/AppLink";

const COOKIES = href("/cookies");

/**
 * The consent banner of a first visit (issue 31 §6, decision 0059): a band at the top of the page, before
 * the skip link as GOV.UK's, so that it hides nothing of the page on a phone. "Tout accepter" and "Tout
 * refuser" are two buttons of the same size, style and place (CNIL's recommendation), "Personnaliser" is
 * /cookies. A plain form: without JavaScript (and in the light version) it posts to /cookies, which
 * records the choice and loads the same page again, without the banner.
 */
export function ConsentBanner() {
  const { t } = useTranslation();
  const location = useLocation();
  // Not on /cookies, which is the choice in full (reached with JS, the root's answer is the last page's).
  if (location.pathname === COOKIES) return null;
  return (
    <section className="consent-banner" aria-labelledby="consent-banner-title">
      <div className="consent-banner__inner">
        <h2 id="consent-banner-title" className="consent-banner__title">
          {t("consent.banner.title")}
        </h2>
        <p>{t("consent.banner.text")}</p>
        {/* A plain form, a full page load with JS too: the tag manager starts with the choice, as on /cookies. */}
        <form method="post" action={COOKIES} className="consent-banner__actions">
          <input type="hidden" name={CONSENT_RETURN_FIELD} value={location.pathname + location.search} />
          <button
            type="submit"
            name={INTENT_FIELD}
            value={CONSENT_INTENT.acceptAll}
            className="button consent-banner__choice"
          >
            {t("consent.banner.acceptAll")}
          </button>
          <button
            type="submit"
            name={INTENT_FIELD}
            value={CONSENT_INTENT.refuseAll}
            className="button consent-banner__choice"
          >
            {t("consent.banner.refuseAll")}
          </button>
          <AppLink to={COOKIES} className="link-action consent-banner__customise">
            {t("consent.banner.customise")}
          </AppLink>
        </form>
      </div>
    </section>
  );
}
