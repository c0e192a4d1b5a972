import { useEffect } from "react";
import { dataLayerEntry, type TagEvent } from "~/domain/tag-events";

/**
 * The tag manager in the browser (issue 16 §7, decision 0031). The server records every event (the
 * source of truth, JavaScript or not); the browser only copies them to `window.dataLayer`, and only when
 * the root loader says so (a TAG_MANAGER_ID and the person's consent). Nothing here calls the analytics
 * provider: the events are never sent twice.
 */
type DataLayerWindow = Window & { dataLayer?: Record<string, unknown>[] };

/** The document's inline snippet: creates the dataLayer, then loads the container's script when there is one. */
export function TagManagerSnippet({ nonce, scriptUrl }: { nonce: string | undefined; scriptUrl: string | null }) {
  return (
    <>
      <script
        nonce={nonce}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{
          __html:
            'window.dataLayer=window.dataLayer||[];window.dataLayer.push({"gtm.start":Date.now(),event:"gtm.js"});',
        }}
      />
      {scriptUrl ? <script async src={scriptUrl} nonce={nonce} suppressHydrationWarning /> : null}
    </>
  );
}

function push(entry: Record<string, unknown>) {
  const w = window as DataLayerWindow;
  (w.dataLayer ??= []).push(entry);
}

/** The event an element's data-tag-* attributes name (components set them with `tagAttributes`). */
function eventOf(element: HTMLElement): Record<string, unknown> | null {
  const name = element.dataset.tagEvent;
  if (!name) return null;
  let properties: Record<string, unknown> = {};
  try {
    properties = element.dataset.tagProperties ? (JSON.parse(element.dataset.tagProperties) as typeof properties) : {};
  } catch {
    return null;
  }
  return dataLayerEntry({ name, properties });
}

/**
 * Listens to the whole document (after React Router's own handlers, on window): a link's click is
 * copied to the dataLayer (when `enabled`), and when JavaScript navigated instead of the browser (the
 * click's default prevented, so no `ping` goes out) the ping is sent as a beacon. A form's submission
 * (a partner opened) is copied too; the server records it from the form's own post. `pending` is the
 * event the last action recorded (a card or a refund request sent), copied once per `pendingKey`.
 */
export function useTagEvents(enabled: boolean, pending: TagEvent | null, pendingKey: string | null) {
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest("a[data-tag-event]") : null;
      if (!(link instanceof HTMLAnchorElement)) return;
      const entry = enabled ? eventOf(link) : null;
      if (entry) push(entry);
      const ping = link.getAttribute("ping");
      if (event.defaultPrevented && ping) navigator.sendBeacon(ping, new URLSearchParams());
    };
    const onSubmit = (event: SubmitEvent) => {
      if (!enabled || !(event.target instanceof HTMLFormElement)) return;
      const entry = eventOf(event.target);
      if (entry) push(entry);
    };
    window.addEventListener("click", onClick);
    window.addEventListener("submit", onSubmit);
    return () => {
      window.removeEventListener("click", onClick);
      window.removeEventListener("submit", onSubmit);
    };
  }, [enabled]);

  useEffect(() => {
    if (enabled && pending) push(dataLayerEntry(pending));
    // Once per action's result (its flash id), not at every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, pendingKey]);
}
