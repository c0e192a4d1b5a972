import { useEffect, useRef, type ReactNode } from "react";
import { useTranslation } from "~/i18n";
import { Link, useNavigate } from "react-router";
import { DocumentTitle } from "./DocumentTitle";

/**
 * A side panel that is a route of its own (/cards/42/stop). Without JS it is a region of the page,
 * shown first in <main>; with JS the same <dialog> becomes modal: focus stays inside, Esc closes
 * (by navigating to `closeTo`), and focus goes back to whatever opened it.
 */
export function Panel({ id, title, closeTo, error = false, children }: { id: string; title: string; closeTo: string; error?: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement && !dialog.contains(document.activeElement) ? document.activeElement : null;
    if (!dialog.matches(":modal")) {
      dialog.close();
      dialog.showModal();
    }
    const onCancel = (event: Event) => {
      event.preventDefault();
      void navigate(closeTo, { preventScrollReset: true });
    };
    dialog.addEventListener("cancel", onCancel);
    return () => {
      dialog.removeEventListener("cancel", onCancel);
      if (dialog.open) dialog.close();
      // After the page underneath has settled (it may move focus to its heading), return to the opener.
      if (opener) requestAnimationFrame(() => opener.isConnected && opener.focus());
    };
  }, [closeTo, navigate]);

  const titleId = `${id}-title`;
  return (
    <dialog ref={ref} open className="panel-dialog" aria-labelledby={titleId}>
      <DocumentTitle page={title} error={error} />
      <div className="panel-dialog__header">
        <h2 id={titleId} className="panel-dialog__title">
          {title}
        </h2>
        <Link to={closeTo} className="panel-dialog__close" preventScrollReset>
          {t("app.close")}
          <span className="visually-hidden"> : {title}</span>
        </Link>
      </div>
      <div className="panel-dialog__body">{children}</div>
    </dialog>
  );
}
