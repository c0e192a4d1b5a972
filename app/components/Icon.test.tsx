import { readFileSync } from "node:fs";
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { ICON_NAMES, Icon } from "./Icon";

test("every icon is an inline SVG hidden from assistive technologies and drawn in the text's colour", () => {
  expect(ICON_NAMES).toEqual(
    expect.arrayContaining(["lock", "snowflake", "eye", "card", "pin", "arrow-up", "arrow-down", "bell", "check"]),
  );
  for (const name of ICON_NAMES) {
    const html = renderToStaticMarkup(<Icon name={name} />);
    expect(html, name).toMatch(/^<svg class="icon" viewBox="0 0 24 24"/);
    expect(html, name).toContain('aria-hidden="true"');
    expect(html, name).toContain('focusable="false"');
    expect(html, name).toContain('stroke="currentColor"');
    // A shape, not text: no emoji or character glyph that would need a font.
    expect(html, name).toMatch(/<(path|rect|circle) /);
    expect(html, name).not.toMatch(/<text|\p{Extended_Pictographic}/u);
  }
});

test("a caller's class is added to the icon's own", () => {
  expect(renderToStaticMarkup(<Icon name="lock" className="icon--large" />)).toContain('class="icon icon--large"');
  // The size the class gives lives in a stylesheet the build inlines (no style attribute: the CSP forbids them).
  const css = readFileSync(new URL("../styles/card-page.css", import.meta.url), "utf8");
  expect(css).toMatch(/(^|\n)\.icon\s*\{[^}]*width:/);
});
