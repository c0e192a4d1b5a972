import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { BreakableAddress } from "./BreakableAddress";

test("an address may break after its « @ » and its dots only, and reads the same", () => {
  const html = renderToStaticMarkup(<BreakableAddress text="marie.martin@example.com" />);
  expect(html).toBe("marie.<wbr/>martin@<wbr/>example.<wbr/>com");
  expect(html.replace(/<wbr\/>/g, "")).toBe("marie.martin@example.com");
  expect(renderToStaticMarkup(<BreakableAddress text="+33612345678" />)).toBe("+33612345678");
});
