import { useEffect, useLayoutEffect, useRef, type ReactNode } from "react";
import { useTranslation } from "~/i18n";
import { Link, useNavigate } from "react-router";
import { DocumentTitle } from "./DocumentTitle";
import { setPanelMessageSlot } from "./panelMessages";
import { useTypedValuesKept } from "./panel-typed-values";

/**
 * A side panel that is a route of its own (/cards/42/stop). Without JS it is a region of the page,
 * shown first in <main>; with JS the same <dialog> becomes modal: focus stays inside, Esc closes
 * (by navigating to `closeTo`), and focus goes back to whatever opened it — to the `summary` of the
 * menu it was opened from when that menu has closed meanwhile. While it is open, the flash message
 * is rendered inside it (see panelMessages.ts), where the person is, and what was typed in its forms
 * outlives the close confirmation of a wizard (panel-typed-values.ts).
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
    const leave = () => void navigate(closeTo, { preventScrollReset: true });
    // RGAA 7.1: Escape is handled here, once, before the browser sees it. Chromium lets a page refuse a
    // close request (its `cancel` event) only once per user activation: a second Escape, or the first
    // one on a page just loaded, closed the <dialog> itself and left it drawn, no longer modal, while
    // the page behind came back to life. Escape inside a field that uses it (a list it closes, an input
    // method composing) is that field's.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented || event.isComposing) return;
      event.preventDefault();
      leave();
    };
    // Other close requests (a phone's Back gesture): refused when the browser allows it, and then…
    const onCancel = (event: Event) => {
      if (!event.cancelable) return;
      event.preventDefault();
      leave();
    };
    // …when it did not, the dialog is made modal again where focus was, and closes by its route.
    let focused: Element | null = null;
    const onFocusIn = (event: FocusEvent) => (focused = event.target as Element);
    const onClose = () => {
      if (dialog.open || !dialog.isConnected) return;
      dialog.showModal();
      if (focused instanceof HTMLElement && dialog.contains(focused)) focused.focus();
      leave();
    };
    dialog.addEventListener("keydown", onKeyDown);
    dialog.addEventListener("cancel", onCancel);
    dialog.addEventListener("focusin", onFocusIn);
    dialog.addEventListener("close", onClose);
    return () => {
      dialog.removeEventListener("keydown", onKeyDown);
      dialog.removeEventListener("cancel", onCancel);
      dialog.removeEventListener("focusin", onFocusIn);
      dialog.removeEventListener("close", onClose);
    };
  }, [closeTo, navigate]);
  useTypedValuesKept(ref);

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
