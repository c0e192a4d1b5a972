/**
 * Paint first, enhance after (decision 0039). React Router ends a page with the scripts that hydrate it:
 * `<link rel="modulepreload">` in the head and one inline module that imports the route modules. A
 * browser fetches those with the HTML and runs them as soon as they arrive, so on a slow network the
 * page's first paint waits for about 120 KB of scripts that only enhance a page that already works.
 *
 * Here the page is sent with neither: in the module's place, a small script (same nonce) adds the
 * preloads and the module once the browser has painted the page (the frame after the first one), or
 * after a second when nothing is painted (a hidden tab). What the scripts do does not change.
 */
const BOOTSTRAP = /<script nonce="([^"]*)" type="module" async="">([\s\S]*?)<\/script>/;
const PRELOAD = /<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g;

/** A string as a script literal that cannot close the script element or open a comment. */
const scriptLiteral = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");

export function scriptsAfterPaint(html: string): string {
  const bootstrap = BOOTSTRAP.exec(html);
  if (!bootstrap) return html;
  const [tag, nonce, module] = bootstrap as unknown as [string, string, string];
  // One pass over the page: each preload is taken out and its address kept for the loader.
  const preloads: string[] = [];
  const withoutPreloads = html.replace(PRELOAD, (_link, href: string) => {
    preloads.push(href);
    return "";
  });
  const loader =
    "(function(){var nonce=document.currentScript.nonce,started=false;" +
    "function start(){if(started)return;started=true;var head=document.head;" +
    `${scriptLiteral(preloads)}.forEach(function(href){var link=document.createElement("link");` +
    'link.rel="modulepreload";link.href=href;link.nonce=nonce;head.appendChild(link)});' +
    'var script=document.createElement("script");script.type="module";script.nonce=nonce;' +
    `script.textContent=${scriptLiteral(module)};head.appendChild(script)}` +
    "requestAnimationFrame(function(){setTimeout(start,0)});setTimeout(start,1000)})()";
  return withoutPreloads.replace(tag, () => `<script nonce="${nonce}">${loader}</script>`);
}
