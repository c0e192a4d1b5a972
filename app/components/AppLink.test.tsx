import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { AppLink, currentFor } from "./AppLink";

test("an AppLink is a plain link to its address, marked for the router's discovery and the one click listener", () => {
  expect(
    renderToStaticMarkup(
      <AppLink to="/cards/c1?tab=declined#list" className="tabs__link" aria-current="page">
        Refusées
      </AppLink>,
    ),
  ).toBe(
    '<a class="tabs__link" aria-current="page" href="/cards/c1?tab=declined#list" data-discover="app">Refusées</a>',
  );
});

test("a document to load is a plain link the click listener leaves to the browser", () => {
  expect(
    renderToStaticMarkup(
      <AppLink to="/receipts/1" reloadDocument>
        reçu
      </AppLink>,
    ),
  ).toBe('<a href="/receipts/1">reçu</a>');
});

test("a link that keeps the page's scroll (a panel, a tab) says so to the listener", () => {
  expect(
    renderToStaticMarkup(
      <AppLink to="/cards/c1?panel=pin" preventScrollReset>
        PIN
      </AppLink>,
    ),
  ).toBe('<a href="/cards/c1?panel=pin" data-discover="app" data-keep-scroll="">PIN</a>');
});

test("a navigation link is the current page on its page and the pages below it, as React Router's NavLink", () => {
  expect(currentFor("/cards/c1", "/cards/c1")).toBe("page");
  expect(currentFor("/cards/c1/stop", "/cards/c1")).toBe("page");
  expect(currentFor("/cards/c10", "/cards/c1")).toBeUndefined();
  expect(currentFor("/wallets", "/cards")).toBeUndefined();
  expect(currentFor("/notifications", "/notifications?unread=1")).toBe("page");
  expect(currentFor("/cards", "/")).toBeUndefined();
});
