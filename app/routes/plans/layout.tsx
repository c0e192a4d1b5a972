import { Outlet } from "react-router";

/**
 * The plans area (spec 001 §2.5). A placeholder that only renders its child: Part C of issue 14 owns this
 * file (tabs for integrations, expense requests, allowances) and replaces it.
 */
export default function PlansLayout() {
  return <Outlet />;
}
