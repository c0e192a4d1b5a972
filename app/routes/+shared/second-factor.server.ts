import type { RouterContextProvider } from "react-router";
import type { MfaChannel } from "~/domain/mfa";
import { PENDING_CHANGE_FIRST } from "~/domain/mfa";
import { accountContext } from "~/routes/+shared/auth.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import type { InternalTarget } from "~/routes/+shared/redirects.server";
import { getPlatform } from "~/.server/platform";
import type { ContactField } from "~/.server/services/profile";
import { enableMfa } from "~/.server/services/security";

/**
 * Choosing the second factor, from the settings or from the secure-account step: the one place that
 * maps `enableMfa`'s results to where the person goes and what they are told. A failure of the update
 * itself says `mfa.updateFailed` (spec 001 §8) on the page the choice was made from.
 */
export async function chooseSecondFactor(
  request: Request,
  context: Readonly<RouterContextProvider>,
  channel: MfaChannel | null,
  pages: {
    from: InternalTarget;
    pendingChange: (field: ContactField) => InternalTarget;
    done: () => Promise<{ to: InternalTarget; message: string }>;
  },
): Promise<Response> {
  const { db, logger } = await getPlatform();
  let result: Awaited<ReturnType<typeof enableMfa>>;
  try {
    result = channel ? await enableMfa(db, context.get(accountContext), channel) : { kind: "noDestination" };
  } catch (error) {
    logger.error("mfa update failed", { error: error instanceof Error ? error.message : String(error) });
    return redirectWithFlash(request, pages.from, { kind: "error", message: "mfa.updateFailed" });
  }
  switch (result.kind) {
    // A change still waiting for its code is settled first, as the page itself would have said.
    case "pendingChange":
      return redirectWithFlash(request, pages.pendingChange(result.field), {
        kind: "error",
        message: PENDING_CHANGE_FIRST[result.field],
      });
    case "noDestination":
      return redirectWithFlash(request, pages.from, { kind: "error", message: "errors.mfaNoDestination" });
    case "ok": {
      const { to, message } = await pages.done();
      return redirectWithFlash(request, to, { kind: "success", message });
    }
  }
}
