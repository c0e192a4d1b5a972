import { internalRedirect } from "~/.server/redirects";

export const loader = () => internalRedirect("/cards");
