import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { TagManagerSnippet } from "./TagManager";

/** Decision 0031: the snippet carries the CSP nonce; only a real container loads a script from outside. */
test("the sandbox's snippet creates the dataLayer and loads nothing", () => {
  const html = renderToStaticMarkup(<TagManagerSnippet nonce="n0nce" scriptUrl={null} />);
  expect(html).toMatch(/^<script nonce="n0nce">window\.dataLayer=window\.dataLayer\|\|\[\];/);
  expect(html).not.toContain("src=");
});

test("a container's script is loaded with the nonce", () => {
  const html = renderToStaticMarkup(
    <TagManagerSnippet nonce="n0nce" scriptUrl="https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD" />,
  );
  expect(html).toContain('src="https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD"');
  expect(html.match(/nonce="n0nce"/g)).toHaveLength(2);
});
