import { useEffect, useRef, useState } from "react";

/**
 * "Voir plus" is a link (so it works without JS, landing on the first new item by its #fragment). With JS the
 * longer list comes without a reload; then focus moves to the first new item and the number of new items is
 * announced in a polite live region (RGAA 12.8, ACCESSIBILITY.md "Load more and pagination"). `ids` are the items
 * shown, in order; `elementId` gives an item's element id (its fragment: the element takes focus from a script,
 * `tabIndex={-1}`); `announce` says how many came. Returns what the live region says.
 */
export function useRevealNewItems(
  ids: readonly string[],
  elementId: (id: string) => string,
  announce: (count: number) => string,
): string {
  const previous = useRef(ids);
  const [announcement, setAnnouncement] = useState("");
  useEffect(() => {
    const before = previous.current;
    previous.current = ids;
    // Only a longer list that starts with the same items is "more"; a tab change is not.
    const extended = before.length > 0 && ids.length > before.length && before.every((id, i) => ids[i] === id);
    if (!extended) {
      if (ids.join() !== before.join()) setAnnouncement("");
      return;
    }
    document.getElementById(elementId(ids[before.length]!))?.focus();
    setAnnouncement(announce(ids.length - before.length));
  }, [ids, elementId, announce]);
  return announcement;
}
