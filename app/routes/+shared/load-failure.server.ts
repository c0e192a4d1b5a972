import { data } from "react-router";
import { getPlatform } from "~/.server/platform";

/**
 * What a page's error boundary needs to say which part of it failed (spec 000 §8: "fetchWalletsFailed"…):
 * a 500 whose body names the catalogue key. A loader hands it to the promise that may fail,
 * `listWallets(db, id).catch(failedTo("wallets.errors.fetchWalletsFailed"))`; the boundary of that route
 * (`LoadFailure`) shows the message where the page was, inside the shell, so the navigation stays.
 * The cause is logged here: React Router hides a thrown error's own words from the answer in production.
 */
export function failedTo(message: string) {
  return async (error: unknown): Promise<never> => {
    await logLoadFailure(message, error);
    throw data({ failed: message }, { status: 500 });
  };
}

/**
 * For a part a page stands without (the bell's count, spec 000 §8): the cause logged as `failedTo` does, and null
 * in the part's place, which the page then says it could not read.
 */
export function nullWhenFailed(message: string) {
  return async (error: unknown): Promise<null> => {
    await logLoadFailure(message, error);
    return null;
  };
}

async function logLoadFailure(message: string, error: unknown): Promise<void> {
  const { logger } = await getPlatform();
  logger.error("loader failed", {
    failed: message,
    error: error instanceof Error ? { message: error.message, stack: error.stack } : String(error),
  });
}
