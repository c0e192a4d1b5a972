import { NoScript } from "./LightVersion";

/**
 * Without JavaScript, the page loads `to` (itself by default) again after `seconds` (DESIGN §4.6: polling
 * without JS is a meta refresh). Inside `<noscript>`: with scripts on the browser reads it as text and
 * never refreshes, and React renders a `<meta>` met inside a `<noscript>` in place instead of moving it
 * into `<head>`. On a light page (no script, decision 0040) the refresh is the page's own, outside it.
 * `to` is a path of the portal (built by `internalPath`); React escapes the attribute.
 */
export function NoScriptRefresh({ seconds, to }: { seconds: number; to?: string }) {
  return (
    <NoScript>
      <meta httpEquiv="refresh" content={to ? `${seconds};url=${to}` : String(seconds)} />
    </NoScript>
  );
}
