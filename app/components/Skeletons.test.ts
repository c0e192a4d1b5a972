import { expect, test } from "vitest";
import { skeletonOf } from "./Skeletons";

const at = (href: string) => {
  const url = new URL(href, "https://portail.example");
  return { pathname: url.pathname, search: url.search };
};

test("entering the wallets shows the strip's skeleton; moving between wallets does not (the strip is there)", () => {
  expect(skeletonOf(at("/wallets/w_1"), at("/cards/c_1"))).toBe("wallets");
  expect(skeletonOf(at("/wallets"), at("/settings/profile"))).toBe("wallets");
  expect(skeletonOf(at("/wallets/w_2"), at("/wallets/w_1"))).toBeNull();
  // A look-alike path is not the wallets.
  expect(skeletonOf(at("/walletsx"), at("/cards"))).toBeNull();
});

test("the refund list: the whole list entering it, its items for another tab, nothing for a page more or a panel closed", () => {
  expect(skeletonOf(at("/plans/expense-requests"), at("/plans/integrations"))).toBe("refunds");
  expect(skeletonOf(at("/plans/expense-requests?tab=finished"), at("/cards/c_1"))).toBe("refunds");
  expect(skeletonOf(at("/plans/expense-requests?tab=finished"), at("/plans/expense-requests"))).toBe("refundItems");
  expect(skeletonOf(at("/plans/expense-requests"), at("/plans/expense-requests?tab=finished"))).toBe("refundItems");
  expect(skeletonOf(at("/plans/expense-requests?page=2"), at("/plans/expense-requests"))).toBeNull();
  expect(skeletonOf(at("/plans/expense-requests"), at("/plans/expense-requests/new?step=ticket"))).toBeNull();
});

test("a new request from the list shows the type step's placeholders; not its later steps, nor a correction", () => {
  expect(skeletonOf(at("/plans/expense-requests/new"), at("/plans/expense-requests"))).toBe("refundTypes");
  expect(skeletonOf(at("/plans/expense-requests/new?step=type"), at("/plans/expense-requests"))).toBe("refundTypes");
  expect(skeletonOf(at("/plans/expense-requests/new?step=ticket"), at("/plans/expense-requests"))).toBeNull();
  expect(skeletonOf(at("/plans/expense-requests/exr_1"), at("/plans/expense-requests"))).toBeNull();
  expect(
    skeletonOf(at("/plans/expense-requests/new?step=type"), at("/plans/expense-requests/new?step=ticket")),
  ).toBeNull();
});

test("any other page has none", () => {
  expect(skeletonOf(at("/cards/c_1"), at("/wallets/w_1"))).toBeNull();
  expect(skeletonOf(at("/store-locator"), at("/cards"))).toBeNull();
});
