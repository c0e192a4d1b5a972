import { useEffect, useState } from "react";
import { createPortal } from "react-dom";
import { useNavigation } from "react-router";
import { useTranslation } from "~/i18n";

/** Spec 000 §9: navigations shorter than this show nothing. */
export const PAGE_LOADER_DELAY_MS = 300;

/**
 * The page loader (spec 000 §2, §9): with JS, a progress bar and a polite announcement when a
 * navigation or a submission lasts more than 300 ms. Without JS the browser's own indicator does it.
 * The live region is always in the page, so that the text put into it is announced. An open panel (a
 * modal dialog, in the top layer) covers the page's bar: the bar is then drawn inside it too (issue 31 §4).
 */
export function PageLoader() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  // The navigation under way (a submission has its location too), and the last one that lasted 300 ms.
  const pending = navigation.state === "idle" ? null : (navigation.location?.key ?? null);
  const [slow, setSlow] = useState<string | null>(null);
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => setSlow(pending), PAGE_LOADER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [pending]);
  const shown = pending !== null && slow === pending;
  // Only ever true on the client, after the delay: the panel is looked up when the bar is drawn.
  const panel = shown ? document.querySelector<HTMLDialogElement>("dialog:modal") : null;
  return (
    <div className="page-loader-region" role="status" aria-live="polite">
      {shown ? (
        <>
          <div className="page-loader" aria-hidden="true" />
          {panel ? createPortal(<div className="page-loader" aria-hidden="true" />, panel) : null}
          <span className="visually-hidden">{t("pageLoader.loading")}</span>
        </>
      ) : null}
    </div>
  );
}
