/**
 * The tabs of the plans page (spec 001 §2.5), in one place: the plans layout and the side navigation
 * both list them from here. A tab shows only when its page is built (`built`, switched on by the issue
 * that builds it: integrations by issue 16, allowances by the allowances issue) and the account has its
 * feature (`feature`: `features.<feature>.any`; none: every account).
 */
export interface PlanTab {
  id: "integrations" | "expenseRequests" | "allowances";
  /** The tab's page (a page of routes.ts once built). */
  path: string;
  /** Catalogue key of its label. */
  label: string;
  feature: "expenseRequests" | "allowances" | null;
  built: boolean;
}

export const PLAN_TABS: readonly PlanTab[] = [
  { id: "integrations", path: "/plans/integrations", label: "plans.tabs.integrations", feature: null, built: true },
  {
    id: "expenseRequests",
    path: "/plans/expense-requests",
    label: "plans.tabs.expenseRequests",
    feature: "expenseRequests",
    built: true,
  },
  {
    id: "allowances",
    path: "/plans/allowances",
    label: "plans.tabs.allowances",
    feature: "allowances",
    built: true,
  },
];

/** Which plan features an account has (`features.x.any`); null when unknown (the navigation failed to load). */
export type PlanFeatures = { expenseRequests: boolean; allowances: boolean } | null;

/** The tabs this account sees, in order: built, and with their feature on. */
export function planTabs(features: PlanFeatures, tabs: readonly PlanTab[] = PLAN_TABS): PlanTab[] {
  return tabs.filter((tab) => tab.built && (tab.feature === null || features?.[tab.feature] === true));
}

/**
 * The tab a path of the plans area belongs to (`/plans/expense-requests/new` → expense requests), or
 * null (e.g. `/plans/suggest-establishment`, shared by the tabs).
 */
export function planTabOf(pathname: string, tabs: readonly PlanTab[] = PLAN_TABS): PlanTab | null {
  return tabs.find((tab) => pathname === tab.path || pathname.startsWith(`${tab.path}/`)) ?? null;
}

/** The plan features of an account (spec 001 §3: `features.expenseRequests.any`, `features.allowances.any`). */
export function planFeaturesOf(account: {
  features: { expenseRequests: { any?: unknown }; allowances: { any?: unknown } };
}): NonNullable<PlanFeatures> {
  return {
    expenseRequests: account.features.expenseRequests.any === true,
    allowances: account.features.allowances.any === true,
  };
}
