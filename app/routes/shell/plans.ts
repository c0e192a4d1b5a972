import { data } from "react-router";

/**
 * The plans area (integrations, refunds, allowances: spec 001 §2.5) is not built yet (issue 16): until
 * then `/plans` says so with the 404 page instead of redirecting to a page that does not exist.
 */
export const loader = () => {
  throw data(null, { status: 404 });
};
