import type { Platform } from "~/.server/platform";
import type { Account } from "~/.server/services/accounts";
import type { AllowanceDraft } from "~/.server/services/allowances/drafts";
import { internalPath, type InternalPath } from "~/routes/+shared/redirects.server";

/**
 * What the allowance wizard's frame (allowance-wizard.server.ts) hands to a type's flow: the frame finds
 * the signed-in account and its draft (404 otherwise), the flow runs the steps. Carpooling and bicycle
 * share one flow (distance-wizard.server.ts); the subscription has its own (subscription-wizard.server.ts).
 */
export interface AllowanceFlowContext {
  request: Request;
  platform: Platform;
  account: Account;
  draft: AllowanceDraft;
  /** The step named in the URL (`?step=`), not yet checked against the flow's steps. */
  step: string | null;
  /** Europe/Paris calendar day (todayInParis). */
  today: string;
  /** The wizard's own URL for this draft without the step: `/plans/allowances/new?draft=ald_…`. */
  draftPath: InternalPath;
  /** Where closing goes (the list). */
  closeTo: InternalPath;
}

/** The wizard's path for a draft, at a step (or its flow's first), with more of the query if asked. */
export function draftPath(draftId: string, step?: string | null, extra: Record<string, string> = {}): InternalPath {
  return internalPath(
    "/plans/allowances/:requestId",
    { requestId: "new" },
    { search: { draft: draftId, ...(step ? { step } : {}), ...extra } },
  );
}
