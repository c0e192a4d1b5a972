import type { RouterContextProvider } from "react-router";
import { getPlatform } from "~/.server/platform";
import type { DB } from "~/.server/db";
import { getDraft, type RefundDraft } from "~/.server/services/refunds/drafts";
import { type listExpenseTypes } from "~/.server/services/refunds/requests";
import { availableWalletLicences } from "~/.server/services/wallets";
import { stepIndex, type RefundStep } from "~/domain/refunds";
import { getLocale } from "~/i18n/i18next.server";
import { accountContext } from "~/routes/+shared/auth.server";
import { internalPath, type InternalTarget } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";

/**
 * What the refund wizard's loader and action both start from (spec 001 §2.6): the account, its platform,
 * the request (new or corrected), the paths of the steps, and the draft the URL names, found and owned
 * once here so that every step's handler receives a draft that exists.
 */

export const LIST = "/plans/expense-requests" satisfies InternalTarget;

export interface WizardArgs {
  request: Request;
  params: { requestId: string };
  context: Readonly<RouterContextProvider>;
}

export const wizardBase = (requestId: string) => internalPath("/plans/expense-requests/:requestId", { requestId });

export function stepPath(
  requestId: string,
  draftId: string | null,
  step: RefundStep,
  extra: Record<string, string> = {},
) {
  return internalPath(
    "/plans/expense-requests/:requestId",
    { requestId },
    { search: { ...(draftId ? { draft: draftId } : {}), step, ...extra } },
  );
}

export const failedLoad = (request: Request) =>
  redirectWithFlash(request, LIST, { kind: "error", message: "refundWizard.failedLoadRefundRequest" });

/** The account (with the feature), its platform, the request: the loader's and the action's start. */
export async function wizardContext({ request, params, context }: WizardArgs) {
  const account = context.get(accountContext);
  const platform = await getPlatform();
  const requestId = params.requestId;
  return {
    request,
    account,
    userId: account.id,
    locale: getLocale(context),
    platform,
    db: platform.db,
    url: new URL(request.url),
    requestId,
    editing: requestId !== "new",
  };
}

export type WizardContext = Awaited<ReturnType<typeof wizardContext>>;
export type ExpenseTypes = Awaited<ReturnType<typeof listExpenseTypes>>;

export type DraftOfUrl = { kind: "none" } | { kind: "gone" } | { kind: "found"; draft: RefundDraft };

/**
 * The draft the URL names: none named, or gone (another person's, never made, sent already, or made for
 * another request than this wizard's), or found.
 */
export async function draftOfUrl({ db, userId, url, editing, requestId }: WizardContext): Promise<DraftOfUrl> {
  const draftId = url.searchParams.get("draft");
  if (draftId === null) return { kind: "none" };
  const found = await getDraft(db, userId, draftId);
  if (found.kind !== "found" || found.draft.requestId !== (editing ? requestId : null) || found.draft.submitted)
    return { kind: "gone" };
  return found;
}

/** The answer to a draft that is gone: back to the list (correcting) or to a new wizard, with a message. */
export function draftGone(
  { request, editing, requestId }: WizardContext,
  to: InternalTarget = editing ? LIST : wizardBase(requestId),
) {
  return redirectWithFlash(request, to, { kind: "error", message: "refundWizard.draftGone" });
}

/** The wallet licences that would create a mobility wallet (the create-wallet preamble, spec 001 §2.6). */
export async function mobilityLicences(db: DB, userId: string) {
  return (await availableWalletLicences(db, userId)).filter((l) => l.walletType === "mobility");
}

/**
 * The steps of this draft's road, in order: correcting starts at the ticket; mobility adds the preamble
 * (while a mobility wallet can be created and the person has not gone past it) and the subtype choice.
 */
export function roadOf(draft: RefundDraft | null, technicalName: string | null, preamble: boolean): RefundStep[] {
  const classic: RefundStep[] = ["ticket", "details", "methods", "summary"];
  if (draft?.requestId) return classic;
  if (technicalName !== "mobility") return ["type", ...classic];
  const showPreamble = preamble && (draft?.stepReached ?? 0) < stepIndex("mobility");
  return ["type", ...(showPreamble ? (["preamble"] as const) : []), "mobility", ...classic];
}
