import { expect, test } from "vitest";
import { Script, createContext } from "node:vm";
import { scriptsAfterPaint } from "./scripts-after-paint";

/** What React Router writes for a page, reduced to the parts the rewrite reads. */
const page = (bootstrap: string) =>
  "<!DOCTYPE html><html><head><title>t</title>" +
  '<link rel="modulepreload" href="/assets/entry.client-A.js" nonce="N0"/>' +
  '<link rel="modulepreload" href="/assets/root-B.js" nonce="N0"/>' +
  '<link nonce="N0" rel="stylesheet" href="/assets/app.css" data-precedence="default"/></head>' +
  '<body><main><h1>Carte</h1></main><script nonce="N0">window.__reactRouterContext = {};</script>' +
  `<script nonce="N0" type="module" async="">${bootstrap}</script></body></html>`;

const bootstrap =
  ';\nimport * as route0 from "/assets/root-B.js";\nwindow.x = "<!-- <b>";\nimport("/assets/entry.client-A.js");';

/** Runs the page's loader in a fake document and returns what it added to the head, and when. */
function runLoader(html: string) {
  const loader = /<script nonce="N0">(\(function\(\)[\s\S]*?)<\/script>/.exec(html)![1]!;
  const added: { tag: string; rel?: string; href?: string; type?: string; nonce?: string; textContent?: string }[] = [];
  const frames: (() => void)[] = [];
  const timers: { fn: () => void; ms: number }[] = [];
  const document = {
    currentScript: { nonce: "N0" },
    head: { appendChild: (el: (typeof added)[number]) => added.push(el) },
    createElement: (tag: string) => ({ tag }),
  };
  new Script(loader).runInContext(
    createContext({
      document,
      requestAnimationFrame: (fn: () => void) => frames.push(fn),
      setTimeout: (fn: () => void, ms: number) => timers.push({ fn, ms }),
    }),
  );
  return { added, frames, timers };
}

test("the page is sent without its scripts; they are added once the page has painted", () => {
  const html = scriptsAfterPaint(page(bootstrap));
  // Nothing for the browser to fetch or run before it paints: no preload, no module.
  expect(html).not.toMatch(/<link[^>]*modulepreload/);
  expect(html).not.toMatch(/<script[^>]*type="module"/);
  expect(html).toContain("<h1>Carte</h1>");
  expect(html).toContain('<link nonce="N0" rel="stylesheet"');
  expect(html).toContain("window.__reactRouterContext = {};");
  // The module's text is written so that it cannot open a comment or close the loader's element.
  expect(html.match(/<\/script>/g)).toHaveLength(2);
  expect(html).not.toContain("<!--");

  const { added, frames, timers } = runLoader(html);
  expect(added).toHaveLength(0);
  // The frame after the first paint starts them; the one-second fallback then does nothing more.
  frames.shift()!();
  const afterFrame = timers.find((t) => t.ms === 0)!;
  afterFrame.fn();
  timers.find((t) => t.ms === 1000)!.fn();
  expect(added.map((el) => [el.tag, el.rel ?? el.type, el.href ?? null, el.nonce])).toEqual([
    ["link", "modulepreload", "/assets/entry.client-A.js", "N0"],
    ["link", "modulepreload", "/assets/root-B.js", "N0"],
    ["script", "module", null, "N0"],
  ]);
  expect(added[2]!.textContent).toBe(bootstrap);
});

test("a hidden tab, which paints nothing, still gets its scripts after a second", () => {
  const { added, timers } = runLoader(scriptsAfterPaint(page(bootstrap)));
  timers.find((t) => t.ms === 1000)!.fn();
  expect(added.map((el) => el.tag)).toEqual(["link", "link", "script"]);
});

test("a document without React Router's module (an error page, the light version) is left as it is", () => {
  const html = "<!DOCTYPE html><html><head></head><body><p>Erreur</p></body></html>";
  expect(scriptsAfterPaint(html)).toBe(html);
});
