import { data, isRouteErrorResponse, useRouteError, type MiddlewareFunction } from "react-router";
import { NotFoundPage } from "~/components/ErrorPages";
import { requireAccount } from "~/routes/+shared/auth.server";
import { ErrorBoundary as ShellErrorBoundary } from "./layout";

// The signed-in shell itself (its loader and its frame), around the catch-all only.
export { loader, default } from "./layout";

/**
 * The shell around an address no page answers (routes.ts's catch-all, issue 30 item 7): a signed-in
 * person sees the 404 inside it, navigation kept; anyone the account guard would send elsewhere (to
 * sign in, to onboarding, to securing the account) gets the public 404 page instead, never a redirect.
 * A layout of its own rather than a child of routes/shell/layout.tsx: an unknown address is not one of
 * the signed-in pages a sign-in may lead back to (redirects.server.ts).
 */
const requireAccountOrNotFound: MiddlewareFunction<Response> = async (args, next) => {
  try {
    return await requireAccount(args, next);
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      throw data(null, { status: 404 });
    }
    throw thrown;
  }
};

export const middleware = [requireAccountOrNotFound];

/** Nobody signed in (the middleware's 404): the public page, without the shell; any other failure, the shell's. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return <ShellErrorBoundary />;
}
