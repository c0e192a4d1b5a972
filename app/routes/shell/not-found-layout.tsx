import { createContext, data, isRouteErrorResponse, useRouteError, type MiddlewareFunction } from "react-router";
import type { Route } from "./+types/not-found-layout";
import { NotFoundPage } from "~/components/ErrorPages";
import { requireAccount } from "~/routes/+shared/auth.server";
import { ErrorBoundary as ShellErrorBoundary, loader as shellLoader } from "./layout";

// The signed-in shell's frame, around the catch-all only.
export { default } from "./layout";

/** Set by the middleware when nobody (or nobody fully set up) is signed in. */
const signedOutContext = createContext<boolean>(false);

/**
 * The shell around an address no page answers (routes.ts's catch-all, issue 30 item 7): a signed-in
 * person sees the 404 inside it, navigation kept; anyone the account guard would send elsewhere (to
 * sign in, to onboarding, to securing the account) gets the public 404 page instead, never a redirect.
 * The request goes on without an account (the root's loader still runs: the public page keeps its
 * footer); this layout's loader then answers 404. A layout of its own rather than a child of
 * routes/shell/layout.tsx: an unknown address is not one of the signed-in pages a sign-in may lead
 * back to (redirects.server.ts).
 */
const requireAccountOrNotFound: MiddlewareFunction<Response> = async (args, next) => {
  let nextCalled = false;
  const guardedNext = () => {
    nextCalled = true;
    return next();
  };
  try {
    return await requireAccount(args, guardedNext);
  } catch (thrown) {
    if (nextCalled || !(thrown instanceof Response) || thrown.status < 300 || thrown.status >= 400) throw thrown;
    args.context.set(signedOutContext, true);
    return next();
  }
};

export const middleware = [requireAccountOrNotFound];

export async function loader({ context }: Route.LoaderArgs): ReturnType<typeof shellLoader> {
  if (context.get(signedOutContext)) throw data(null, { status: 404 });
  return shellLoader({ context });
}

/** Nobody signed in (the loader's 404): the public page, without the shell; any other failure, the shell's. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return <ShellErrorBoundary />;
}
