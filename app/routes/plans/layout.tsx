import { Outlet } from "react-router";

/** The plans area's frame; its tabs come with the plans page (issue 14, part C). */
export default function PlansLayout() {
  return <Outlet />;
}
