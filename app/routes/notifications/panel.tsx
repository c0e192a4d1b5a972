import { useEffect, useRef } from "react";
import { Form, Link, useFetcher } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/panel";
import { DeclineExplanation } from "~/components/DeclineExplanation";
import { LoadFailure } from "~/components/LoadFailure";
import { PageHeader } from "~/components/PageHeader";
import { Panel } from "~/components/Panel";
import { useHydrated } from "~/components/useHydrated";
import { useRevealNewItems } from "~/components/useRevealNewItems";
import { formatDateTime } from "~/domain/dates";
import { notificationSentence, readNotificationFacts } from "~/domain/notification-facts";
import { getPlatform } from "~/.server/platform";
import {
  countUnread,
  deleteNotification,
  listNotifications,
  markRead,
  markUnread,
  type NotificationItem,
} from "~/.server/services/notifications";
import { accountContext } from "~/routes/+shared/auth.server";
import { intents } from "~/routes/+shared/intents";
import { intentOf } from "~/routes/+shared/intents.server";
import { failedTo } from "~/routes/+shared/load-failure.server";
import { internalPath } from "~/routes/+shared/redirects.server";
import { redirectWithFlash, refusal } from "~/routes/+shared/request.server";
import { shownFromThisSite } from "~/routes/+shared/same-site.server";
import { viewHref, viewSearch, type NotificationView } from "./view";
import { viewOf } from "./view.server";

const INTENT = intents("read", "markUnread", "delete");

/** The most ids one "read" post may carry (what a few pages in view hold). */
const MAX_READ_IDS = 60;

/**
 * The notification centre (spec 000 §2, §4, decision 0030): a panel over the page named by `back`.
 * Without JS the notifications shown are marked read once rendered (all but one just marked unread);
 * with JS (`observe=1`) the page marks them when they are scrolled into view. Opened from another site
 * (decision 0048) nothing is marked: they are shown unread, with a button that marks them (a post).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const view = viewOf(request);
  const { db } = await getPlatform();
  // Spec 000 §8 "Notifications: fetchNotificationsFailed": said by this route's boundary, in the panel's place.
  const FAILED = "notificationCentre.fetchNotificationsFailed";
  const page = await listNotifications(db, account.id, { unreadOnly: view.unreadOnly, page: view.page }).catch(
    failedTo(FAILED),
  );
  if (!page) throw refusal(404, "notificationCentre.pageNotFound");
  const markedOnDisplay = !view.observe && shownFromThisSite(request);
  if (markedOnDisplay) {
    const kept = new URL(request.url).searchParams.get("kept");
    await markRead(
      db,
      account.id,
      page.items.filter((n) => !n.read && n.id !== kept).map((n) => n.id),
    );
  }
  // The count after this rendering's marking: the bell shows it (the layout's loader runs alongside, before or after).
  return { view, ...page, markedOnDisplay, unread: await countUnread(db, account.id).catch(failedTo(FAILED)) };
}

/**
 * The notifications that could not be read (the first page, "Voir plus", a tab): the message and a way to
 * try again where the panel was, under the shell's header and navigation, with or without JavaScript.
 */
export function ErrorBoundary() {
  const { t } = useTranslation();
  return <LoadFailure title={t("notificationCentre.title")} />;
}

const idOf = (form: FormData) => {
  const id = form.get("id");
  if (typeof id !== "string" || id.length === 0 || id.length > 64) throw refusal(404, "notificationCentre.notFound");
  return id;
};

export async function action({ request, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  const view = viewOf(request);
  const form = await request.formData();
  const intent = intentOf(form, INTENT);
  const { db } = await getPlatform();
  switch (intent) {
    case INTENT.read: {
      const ids = form.getAll("id").filter((id): id is string => typeof id === "string" && id.length <= 64);
      if (ids.length === 0 || ids.length > MAX_READ_IDS) throw refusal(400, "notificationCentre.notFound");
      // None of them this person's (unknown or another's): 404, nothing changed.
      const marked = await markRead(db, account.id, ids);
      if (marked === null) throw refusal(404, "notificationCentre.notFound");
      return { marked };
    }
    case INTENT.markUnread: {
      const id = idOf(form);
      if (!(await markUnread(db, account.id, id))) throw refusal(404, "notificationCentre.notFound");
      // Shown again at once, it must not be marked read by that very rendering.
      return redirectWithFlash(
        request,
        internalPath("/notifications", {}, { search: { ...viewSearch(view), ...(view.observe ? {} : { kept: id }) } }),
        { kind: "success", message: "notificationCentre.markedUnread" },
      );
    }
    case INTENT.delete: {
      const id = idOf(form);
      if (!(await deleteNotification(db, account.id, id))) throw refusal(404, "notificationCentre.notFound");
      return redirectWithFlash(request, internalPath("/notifications", {}, { search: viewSearch(view) }), {
        kind: "success",
        message: "notificationCentre.deleted",
      });
    }
  }
}

/** With JS: marks read, in small batches, the unread notifications that come into view (each once). */
function useReadWhenSeen(observe: boolean) {
  const { submit } = useFetcher();
  const list = useRef<HTMLOListElement>(null);
  const sent = useRef(new Set<string>());
  useEffect(() => {
    const root = list.current;
    if (!observe || !root || typeof IntersectionObserver === "undefined") return;
    const seen = sent.current;
    let pending: string[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const ids = pending.slice(0, MAX_READ_IDS);
      pending = pending.slice(MAX_READ_IDS);
      if (ids.length === 0) return;
      const body = new FormData();
      body.set("intent", INTENT.read);
      for (const id of ids) body.append("id", id);
      void submit(body, { method: "post" });
      if (pending.length > 0) timer = setTimeout(flush, 500);
    };
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const id = entry.target instanceof HTMLElement ? entry.target.dataset.unreadId : undefined;
          if (!entry.isIntersecting || !id || seen.has(id)) continue;
          seen.add(id);
          pending.push(id);
          observer.unobserve(entry.target);
        }
        if (pending.length > 0 && timer === undefined) timer = setTimeout(flush, 500);
      },
      { threshold: 0.6 },
    );
    for (const item of root.querySelectorAll<HTMLElement>("[data-unread-id]"))
      if (!seen.has(item.dataset.unreadId ?? "")) observer.observe(item);
    return () => {
      observer.disconnect();
      if (timer !== undefined) clearTimeout(timer);
      // Seen but not posted yet (a render came within the batch's wait, as right after hydration): the
      // next run observes them again, instead of forgetting them.
      for (const id of pending) seen.delete(id);
    };
  });
  return list;
}

/** An entry's element id, its #fragment: "Voir plus" names the first new one (RGAA 12.8). */
const entryId = (id: string) => `notification-${id}`;

export default function NotificationCentre({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  // Once JS runs, the panel's own links keep `observe=1`: reading is then marked when seen.
  const view: NotificationView = { ...loaderData.view, observe: loaderData.view.observe || hydrated };
  const list = useReadWhenSeen(view.observe);
  const { items, nextId } = loaderData;
  // "Voir plus": without JS its link's fragment opens the longer list at the first new entry, not at the top; with
  // JS focus goes there and the live region below says how many came.
  const moreShown = useRevealNewItems(
    items.map((item) => item.id),
    entryId,
    (count) => t(count === 1 ? "notificationCentre.moreShownOne" : "notificationCentre.moreShown", { count }),
  );
  // Shown from another site without JS: nothing was marked on display, so the person marks them (a post).
  const unmarked =
    view.observe || loaderData.markedOnDisplay ? [] : items.filter((n) => !n.read).slice(0, MAX_READ_IDS);
  const title = t("notificationCentre.title");
  return (
    <>
      {/* The page's one <h1> (RGAA 9.1): only the shell is under the panel, as when this address is loaded directly. */}
      <PageHeader title={title} namesDocument={false} />
      <Panel id="notifications" title={title} closeTo={view.back}>
        <nav aria-label={t("notificationCentre.filterLabel")} className="notification-centre__filter">
          <ul className="tabs">
            <li>
              <Link
                to={viewHref(view, { unreadOnly: false, page: 1 })}
                className="tabs__link"
                aria-current={view.unreadOnly ? undefined : "page"}
                preventScrollReset
              >
                {t("notificationCentre.all")}
              </Link>
            </li>
            <li>
              <Link
                to={viewHref(view, { unreadOnly: true, page: 1 })}
                className="tabs__link"
                aria-current={view.unreadOnly ? "page" : undefined}
                preventScrollReset
              >
                {t("notificationCentre.unreadOnly")}
              </Link>
            </li>
          </ul>
        </nav>
        {unmarked.length > 0 ? (
          <Form method="post" preventScrollReset className="notification-centre__mark-read">
            {unmarked.map((n) => (
              <input key={n.id} type="hidden" name="id" value={n.id} />
            ))}
            <button type="submit" name="intent" value={INTENT.read} className="button button--secondary">
              {t("notificationCentre.markShownRead")}
            </button>
          </Form>
        ) : null}
        {items.length === 0 ? (
          <p className="notification-centre__empty">
            {t(view.unreadOnly ? "notificationCentre.empty" : "notificationCentre.emptyAll")}
          </p>
        ) : (
          <ol className="notification-centre__list" ref={list}>
            {items.map((item) => (
              <NotificationEntry key={item.id} item={item} />
            ))}
          </ol>
        )}
        <p role="status" className="visually-hidden">
          {moreShown}
        </p>
        {nextId ? (
          <p>
            <Link
              to={`${viewHref(view, { page: view.page + 1 })}#${entryId(nextId)}`}
              preventScrollReset
              className="button button--secondary"
            >
              {t("notificationCentre.more")}
            </Link>
          </p>
        ) : null}
      </Panel>
    </>
  );
}

/**
 * One notification (issue 30 §4): what happened in its facts' words (the type's sentence for a row without facts),
 * a link to what it is about, a declined payment's explanation in figures, when it came; then its actions, each
 * named for it ("Supprimer la notification « Paiement refusé : 420,00 € chez Carrefour »", ACCESSIBILITY.md).
 */
function NotificationEntry({ item }: { item: NotificationItem }) {
  const { t } = useTranslation();
  const subject = readNotificationFacts(item.type, item.facts);
  const sentence = subject
    ? notificationSentence(t, subject)
    : t(`notificationCentre.types.${item.type}`, { defaultValue: t("notificationCentre.types.other") });
  // A declined payment's cause in figures (the card page's words, issue 30 §3).
  const declined =
    subject?.kind === "cardPayment" && !subject.approved && subject.code
      ? { code: subject.code, detail: subject.detail }
      : null;
  const named = <span className="visually-hidden"> {t("notificationCentre.itemName", { text: sentence })}</span>;
  return (
    <li
      id={entryId(item.id)}
      // Focused by "Voir plus" from a script only (a screen reader then reads the entry whole).
      tabIndex={-1}
      className={item.read ? "notification" : "notification notification--unread"}
      data-unread-id={item.read ? undefined : item.id}
    >
      <div className="notification-entry__body">
        <p className="notification__text">
          {item.read ? null : <span className="badge">{t("notificationCentre.unread")}</span>}{" "}
          {item.path ? (
            <Link to={item.path} className="notification-entry__link">
              {sentence}
            </Link>
          ) : (
            sentence
          )}
        </p>
        {declined ? <DeclineExplanation code={declined.code} detail={declined.detail} /> : null}
        <p className="notification__date">
          {t("notificationCentre.receivedOn", { date: formatDateTime(item.createdAt) })}
        </p>
      </div>
      <Form method="post" preventScrollReset className="notification__actions notification-entry__actions">
        <input type="hidden" name="id" value={item.id} />
        {item.read ? (
          <button
            type="submit"
            name="intent"
            value={INTENT.markUnread}
            className="button button--secondary button--small notification-entry__action"
          >
            {t("notificationCentre.markUnread")}
            {named}
          </button>
        ) : null}
        <button
          type="submit"
          name="intent"
          value={INTENT.delete}
          className="button button--secondary button--small notification-entry__action"
        >
          {t("notificationCentre.delete")}
          {named}
        </button>
      </Form>
    </li>
  );
}
