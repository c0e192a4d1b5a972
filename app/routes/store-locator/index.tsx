import { useTranslation } from "~/i18n";
import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";
import { PageHeader } from "~/components/PageHeader";
import { Panel } from "~/components/Panel";

/**
 * The store locator (spec 001 §2.9): a full-screen placeholder with a dialog saying the locator lives in
 * the mobile app, with the two store badges; closing goes to the cards. The dialog is the shared Panel
 * (a region without JS, a modal <dialog> with JS: Esc and "Fermer" both lead to /cards).
 */
export default function StoreLocator() {
  const { t } = useTranslation();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const product = root?.productName ?? "";
  return (
    <div className="store-locator">
      {/* Spec 001 §2.1: the page's title is the route's ("store locator"), not the dialog's sentence. */}
      <PageHeader title={t("storeLocator.title")} />
      <div className="store-locator__placeholder" aria-hidden="true" />
      <Panel id="store-locator" title={t("storeLocator.dialogTitle")} closeTo="/cards" namesDocument={false}>
        <p>{t("storeLocator.text", { product })}</p>
        <ul className="store-locator__badges">
          <li>
            <a className="store-badge" href={root?.stores.appStore} rel="noopener">
              {t("storeLocator.appStore")}
            </a>
          </li>
          <li>
            <a className="store-badge" href={root?.stores.playStore} rel="noopener">
              {t("storeLocator.playStore")}
            </a>
          </li>
        </ul>
      </Panel>
    </div>
  );
}
