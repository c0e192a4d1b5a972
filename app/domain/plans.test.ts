import { expect, test } from "vitest";
import { PLAN_TABS, planTabOf, planTabs, type PlanTab } from "./plans";

const ids = (tabs: PlanTab[]) => tabs.map((t) => t.id);
const allBuilt = PLAN_TABS.map((tab) => ({ ...tab, built: true }));

test("a tab shows only with its feature, in the spec's order (integrations, expense requests, allowances)", () => {
  expect(ids(planTabs({ expenseRequests: true, allowances: true }, allBuilt))).toEqual([
    "integrations",
    "expenseRequests",
    "allowances",
  ]);
  expect(ids(planTabs({ expenseRequests: false, allowances: true }, allBuilt))).toEqual(["integrations", "allowances"]);
  expect(ids(planTabs(null, allBuilt))).toEqual(["integrations"]);
});

test("a tab whose page is not built is never shown", () => {
  const tabs = PLAN_TABS.map((tab) => ({ ...tab, built: tab.id === "expenseRequests" }));
  expect(ids(planTabs({ expenseRequests: true, allowances: true }, tabs))).toEqual(["expenseRequests"]);
  expect(ids(planTabs({ expenseRequests: false, allowances: true }, tabs))).toEqual([]);
});

test("the tab of a path: its page and the pages below it, not a page that merely starts alike", () => {
  expect(planTabOf("/plans/expense-requests")?.id).toBe("expenseRequests");
  expect(planTabOf("/plans/expense-requests/new")?.id).toBe("expenseRequests");
  expect(planTabOf("/plans/expense-requests-old")).toBeNull();
  expect(planTabOf("/plans/suggest-establishment")).toBeNull();
  expect(planTabOf("/plans")).toBeNull();
});

test("every tab is built: integrations for everyone, refund requests and allowances each with its feature", () => {
  expect(ids(planTabs({ expenseRequests: true, allowances: true }))).toEqual([
    "integrations",
    "expenseRequests",
    "allowances",
  ]);
  expect(ids(planTabs({ expenseRequests: false, allowances: true }))).toEqual(["integrations", "allowances"]);
  expect(ids(planTabs({ expenseRequests: true, allowances: false }))).toEqual(["integrations", "expenseRequests"]);
  expect(ids(planTabs(null))).toEqual(["integrations"]);
  expect(planTabOf("/plans/integrations")?.id).toBe("integrations");
  expect(planTabOf("/plans/allowances/new")?.id).toBe("allowances");
  expect(planTabOf("/plans/allowances/alw_1/cancel")?.id).toBe("allowances");
});
