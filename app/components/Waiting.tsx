import type { ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { useTranslation } from "~/i18n";
import { NoScript } from "./LightVersion";
import { useRevalidateEvery } from "./useRevalidateEvery";

/** Without JavaScript, a waiting page never reloads itself faster than this (RGAA 13.1, WCAG 2.2.1, F41). */
export const MIN_SELF_REFRESH_SECONDS = 20;

/** The query parameter of a waiting page whose reloading the person stopped (`?poll=off`). */
export const POLL_OFF = "poll";

/** `path` with `?poll=off` added: the same page, waiting without reloading itself. */
function withPollingOff(path: string) {
  const url = new URL(path, "http://portal.invalid");
  url.searchParams.set(POLL_OFF, "off");
  return url.pathname + url.search;
}

/**
 * A page waiting on the server (a receipt being read, a card being made, a chat reply), decision 0067. With
 * JavaScript it looks again every `seconds` without reloading, and what changes (`children`) is a polite live
 * region: announced, focus never moved. Without it (and on the light version, which has no script), a meta
 * refresh to `checkNowTo` (a path of the portal) every `seconds`, never less than 20, said beside a link to
 * check now and one to stop the reloading (RGAA 13.1.1: the person can stop and restart it); stopped, the
 * page stays put until the person checks, and offers to restart. `done`: the wait is over, nothing looks again,
 * and the same live region says how it ended (a region put into the page with its words is not reliably read),
 * so a page keeps its `Waiting` in the same place once the wait is over.
 */
export function Waiting({
  seconds,
  checkNowTo,
  done = false,
  children,
}: {
  seconds: number;
  checkNowTo: string;
  done?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  useRevalidateEvery(seconds * 1000, checkNowTo, !done);
  const every = Math.max(seconds, MIN_SELF_REFRESH_SECONDS);
  const stopped = new URLSearchParams(location.search).get(POLL_OFF) === "off";
  return (
    <div className="waiting">
      <div role="status" className="waiting__status">
        {children}
      </div>
      {done ? null : (
        <NoScript>
          {stopped ? null : <meta httpEquiv="refresh" content={`${every};url=${checkNowTo}`} />}
          <p className="waiting__refresh">
            {stopped ? t("waiting.stopped") : t("waiting.selfRefresh", { seconds: every })}
          </p>
          <ul className="waiting__links">
            <li>
              <Link to={stopped ? withPollingOff(checkNowTo) : checkNowTo} className="link-action">
                {t("waiting.checkNow")}
              </Link>
            </li>
            <li>
              <Link
                to={stopped ? checkNowTo : withPollingOff(location.pathname + location.search)}
                className="link-action"
              >
                {stopped ? t("waiting.restart") : t("waiting.stop")}
              </Link>
            </li>
          </ul>
        </NoScript>
      )}
    </div>
  );
}
