import { useEffect, useRef } from "react";
import { useLocation, useNavigation } from "react-router";

/**
 * After a client-side navigation, focus moves to the new page's <h1> so screen readers start
 * there (a full page load already starts at the top). Not on the first render, nor when only the
 * query changes.
 */
export function useFocusHeadingOnNavigation() {
  const location = useLocation();
  const navigation = useNavigation();
  const first = useRef(true);
  const lastPath = useRef(location.pathname);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // Same page with other parameters (a tab, "Voir plus"): the page manages focus itself.
    if (location.pathname === lastPath.current) return;
    lastPath.current = location.pathname;
    if (navigation.state !== "idle") return;
    // An error summary takes focus itself; leave it there.
    if (document.activeElement?.closest(".error-summary")) return;
    const heading = document.querySelector<HTMLElement>("main h1");
    if (!heading) return;
    heading.setAttribute("tabindex", "-1");
    heading.focus();
  }, [location.key]); // eslint-disable-line react-hooks/exhaustive-deps
}
