import { internalRedirect } from "~/routes/+shared/redirects.server";

export const loader = () => internalRedirect("/cards");
