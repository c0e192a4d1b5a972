import { useEffect } from "react";
import { useNavigate } from "react-router";

/**
 * The value of `data-discover` that marks a link of the portal's own pages (decision 0076). React Router
 * discovers the routes of every `a[data-discover]` ahead of a click, whatever the value; its own <Link>
 * writes "true", also on a `reloadDocument` link that must load a document: only this value is navigated
 * by the one click listener below.
 */
const APP_LINK = "app";

type AppLinkProps = Omit<React.AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  /** An absolute path of the portal, with its query and hash if any: written as it is into `href`. */
  to: string;
  /** A document to load rather than a page of the app (a download, a page whose scripts must start again). */
  reloadDocument?: boolean;
  /** The page keeps its scroll (a panel opened over it, a tab of a list): written `data-keep-scroll`. */
  preventScrollReset?: boolean;
};

/**
 * A link to a page of the portal: a plain `<a href>` (decision 0076). React Router's <Link> resolves its
 * address with hooks on every render, on the server too; this one costs what an `<a>` costs. Once the page
 * is hydrated, `useAppLinkNavigation` (installed once by the root) turns its clicks into client navigations.
 */
export function AppLink({ to, reloadDocument, preventScrollReset, children, ...rest }: AppLinkProps) {
  return (
    <a
      {...rest}
      href={to}
      data-discover={reloadDocument ? undefined : APP_LINK}
      data-keep-scroll={preventScrollReset ? "" : undefined}
    >
      {children}
    </a>
  );
}

/**
 * `aria-current="page"` for a navigation link whose page is shown, or one of its pages below it (as
 * React Router's <NavLink>: `/cards/c1` is current on `/cards/c1/stop`). `pathname`: the location's,
 * read once by the navigation that draws the links.
 */
export function currentFor(pathname: string, to: string): "page" | undefined {
  const path = to.replace(/[?#].*$/, "");
  if (pathname === path) return "page";
  return path !== "/" && pathname.startsWith(path) && pathname.charAt(path.length) === "/" ? "page" : undefined;
}

/** Whether a click on this link is the portal's to navigate (React Router's rules for its <Link>). */
function appLinkOf(event: MouseEvent): HTMLAnchorElement | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return null;
  const anchor = event.target instanceof Element ? event.target.closest("a") : null;
  if (!anchor || anchor.dataset.discover !== APP_LINK) return null;
  if ((anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return null;
  if (anchor.hasAttribute("data-reload")) return null;
  return anchor.origin === window.location.origin ? anchor : null;
}

/**
 * The one click listener of every AppLink (decision 0076), on `document`: after React's own handlers (React
 * listens on the document it hydrated, and did so first: a link's `onClick` may prevent the navigation), before
 * the listeners on `window` that read whether JavaScript navigated (TagManager's beacon for a link's `ping`,
 * which the browser sends only for its own navigations). The address is navigated as React Router's
 * <Link> does: a link to the page shown replaces it in the history, `data-keep-scroll` is its
 * `preventScrollReset`, scroll and focus are otherwise the router's and the root's (useFocusHeadingOnNavigation).
 */
export function useAppLinkNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const anchor = appLinkOf(event);
      if (!anchor) return;
      event.preventDefault();
      const path = anchor.pathname + anchor.search + anchor.hash;
      const here = window.location.pathname + window.location.search + window.location.hash;
      void navigate(path, { replace: path === here, preventScrollReset: anchor.hasAttribute("data-keep-scroll") });
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate]);
}
