import { redirect } from "react-router";

/** The steps in order: the second-factor step sends back to a pending change first, if any. */
export const loader = () => redirect("/secure-account/second-factor");
