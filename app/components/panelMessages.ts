import { useSyncExternalStore } from "react";

/**
 * Where the messages go while a panel is open as a modal dialog: everything outside it is inert
 * (absent from the accessibility tree, under the backdrop), so the flash message is rendered in
 * the panel itself. Set by `Panel` with JavaScript only; null in the server HTML, where the panel
 * is a region of the page and the message stays at the top of <main>.
 */
let slot: HTMLElement | null = null;
const listeners = new Set<() => void>();

export function setPanelMessageSlot(element: HTMLElement | null) {
  slot = element;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function usePanelMessageSlot(): HTMLElement | null {
  return useSyncExternalStore(
    subscribe,
    () => slot,
    () => null,
  );
}
