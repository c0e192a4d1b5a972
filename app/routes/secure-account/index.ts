import { internalRedirect } from "~/routes/+shared/redirects.server";

/** The steps in order: the second-factor step sends back to a pending change first, if any. */
export const loader = () => internalRedirect("/secure-account/second-factor");
