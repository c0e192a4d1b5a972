import { useEffect, useLayoutEffect, useRef, type ReactNode } from "react";
import { useTranslation } from "~/i18n";
import { Link, useNavigate } from "react-router";
import { DocumentTitle } from "./DocumentTitle";
import { setPanelMessageSlot } from "./panelMessages";

/**
 * A side panel that is a route of its own (/cards/42/stop). Without JS it is a region of the page,
 * shown first in <main>; with JS the same <dialog> becomes modal: focus stays inside, Esc closes
 * (by navigating to `closeTo`), and focus goes back to whatever opened it — to the `summary` of the
 * menu it was opened from when that menu has closed meanwhile. While it is open, the flash message
 * is rendered inside it (see panelMessages.ts), where the person is.
 */
export function Panel({
  id,
  title,
  closeTo,
  error = false,
  namesDocument = true,
  children,
}: {
  id: string;
  title: string;
  closeTo: string;
  error?: boolean;
  /** False when the page under it names the document (a page that is only a dialog, spec 001 §2.1). */
  namesDocument?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  const messages = useRef<HTMLDivElement>(null);
  // What had focus when the panel opened, read before any other effect (a menu closing on the
  // new location) can move it.
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    const active = document.activeElement;
    if (active instanceof HTMLElement && active !== document.body && !ref.current?.contains(active))
      opener.current = active;
  }, []);

  // Modal once, for the panel's whole life: its steps (a new closeTo) must not close and reopen it,
  // which would move focus to its first link.
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.matches(":modal")) {
      dialog.close();
      dialog.showModal();
    }
    setPanelMessageSlot(messages.current);
    return () => {
      setPanelMessageSlot(null);
      if (dialog.open) dialog.close();
    };
  }, []);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const onCancel = (event: Event) => {
      event.preventDefault();
      void navigate(closeTo, { preventScrollReset: true });
    };
    dialog.addEventListener("cancel", onCancel);
    return () => dialog.removeEventListener("cancel", onCancel);
  }, [closeTo, navigate]);

  useEffect(
    () => () => {
      // After the page underneath has settled (it may move focus to its heading), return to the
      // opener, or to its menu's summary when the menu has closed.
      const target = opener.current;
      if (!target) return;
      requestAnimationFrame(() => {
        if (!target.isConnected) return;
        const menu = target.closest("details");
        const summary = menu && !menu.open ? menu.querySelector<HTMLElement>(":scope > summary") : null;
        (summary ?? target).focus();
      });
    },
    [],
  );

  const titleId = `${id}-title`;
  return (
    <dialog ref={ref} open className="panel-dialog" aria-labelledby={titleId}>
      {namesDocument ? <DocumentTitle page={title} error={error} /> : null}
      <div className="panel-dialog__header">
        <h2 id={titleId} className="panel-dialog__title">
          {title}
        </h2>
        <Link to={closeTo} className="panel-dialog__close" preventScrollReset>
          {t("app.close")}
          <span className="visually-hidden"> : {title}</span>
        </Link>
      </div>
      <div className="panel-dialog__body">
        <div ref={messages} className="panel-dialog__messages" />
        {children}
      </div>
    </dialog>
  );
}
