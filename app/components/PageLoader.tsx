import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useNavigation } from "react-router";
import { useTranslation } from "~/i18n";
import { loaderSchedule, type LoaderSchedule } from "./page-loader-timing";
import { skeletonWords, usePendingSkeleton } from "./Skeletons";

/**
 * The page loader (spec 000 §2, §9): with JS, a progress bar and a polite announcement when a
 * navigation or a submission takes longer than a moment; once shown, the bar stays at least 300 ms
 * (page-loader-timing.ts, decision 0066). Without JS the browser's own indicator does it.
 * The live region is always in the page, so that the text put into it is announced; the text is there
 * only while the navigation is under way (the bar may outlast it a little, the words do not). A navigation
 * drawing a loading skeleton (Skeletons.tsx) is said here in the skeleton's words: one announcement.
 * An open panel (a modal dialog, in the top layer) covers the page's bar: the bar is then drawn inside
 * it too (issue 31 §4).
 */
export function PageLoader() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle";
  const skeleton = usePendingSkeleton();
  const [shown, setShown] = useState(false);
  const schedule = useRef<LoaderSchedule | null>(null);
  useEffect(() => {
    const made = loaderSchedule(setShown);
    schedule.current = made;
    return () => {
      made.dispose();
      schedule.current = null;
    };
  }, []);
  useEffect(() => {
    schedule.current?.update(pending);
  }, [pending]);
  // Only ever true on the client, after the delay: the panel is looked up when the bar is drawn.
  const panel = shown ? document.querySelector<HTMLDialogElement>("dialog:modal") : null;
  return (
    <div className="page-loader-region" role="status" aria-live="polite">
      {shown ? (
        <>
          <div className="page-loader" aria-hidden="true" />
          {panel ? createPortal(<div className="page-loader" aria-hidden="true" />, panel) : null}
          {pending ? (
            <span className="visually-hidden">{t(skeleton ? skeletonWords[skeleton] : "pageLoader.loading")}</span>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
