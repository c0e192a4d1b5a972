import { internalRedirect } from "~/routes/+shared/redirects.server";

/** Spec 001 §2.1: transactions live on the card page. */
export const loader = () => internalRedirect("/cards");
