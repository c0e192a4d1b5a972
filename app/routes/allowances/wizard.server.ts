import { data, type RouterContextProvider } from "react-router";
import { getPlatform } from "~/.server/platform";
import {
  createAllowanceDraft,
  discardAllowanceDraft,
  getAllowanceDraft,
  type AllowanceDraft,
} from "~/.server/services/allowances/drafts";
import { allowanceTypesFor, getAllowance, type AllowanceListItem } from "~/.server/services/allowances/requests";
import { deleteReceipt } from "~/.server/services/receipts";
import { isAllowanceType, type AllowanceType } from "~/domain/allowances";
import { todayInParis } from "~/domain/dates";
import { accountContext } from "~/routes/+shared/auth.server";
import { intentOf, unknownIntent } from "~/routes/+shared/intents.server";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { shownFromThisSite } from "~/routes/+shared/same-site.server";
import { CLOSE_INTENT, type AllowanceSummaryView, type FrameView } from "~/components/allowances/wizard";
import { draftPath, LIST, plainForm, type AllowanceFlowContext } from "./flow.server";
import { distanceAct, distanceLoad } from "./distance.server";
import { subscriptionAct, subscriptionLoad } from "./subscription.server";

/**
 * The allowance wizards' frame (spec 001 §2.7, issue 15): `/plans/allowances/:requestId`, a side panel
 * over the list. `new` without a type offers the types the person may ask for; `new?type=…` (the refund
 * wizard's mobility road sends `ikv` for the bicycle) makes a draft and goes to its first step; the draft
 * (`?draft=ald_…&step=…`) is then run by its type's flow (FLOWS) — distance.server.ts for carpooling
 * and bicycle, subscription.server.ts for the subscription. Any other id is an allowance already asked
 * for, shown read-only with its figures in words. Closing a draft beyond its first step asks first
 * (`&close=1`), as the refund wizard does (decision 0026).
 */

interface Args {
  request: Request;
  params: { requestId: string };
  context: Readonly<RouterContextProvider>;
}

/**
 * The flows, each with its loader and action (each a map from step to handler). A subscription's flow
 * reads the body itself (its tickets step is multipart), the distance flow a plain form.
 */
const FLOWS = {
  distance: { load: distanceLoad, act: distanceAct },
  subscription: { load: subscriptionLoad, act: subscriptionAct },
};
const flowOf = (draft: AllowanceDraft) => FLOWS[draft.type === "subscription" ? "subscription" : "distance"];

/** The refund wizard names the bicycle allowance by its subtype, `ikv`. */
function askedType(raw: string): AllowanceType | null {
  if (raw === "ikv") return "bicycle";
  return isAllowanceType(raw) ? raw : null;
}

/** Something would be lost by closing: a step beyond the first reached, or a file added. */
const worthKeeping = (draft: AllowanceDraft) =>
  draft.stepReached > 0 || draft.mediaId !== null || draft.secondMediaId !== null;

/** The draft named in the URL, or the answer that sends the person elsewhere (gone, or already sent). */
async function findDraft(request: Request, userId: string, draftId: string) {
  const { db } = await getPlatform();
  const found = await getAllowanceDraft(db, userId, draftId);
  if (found.kind !== "found")
    return redirectWithFlash(request, internalPath("/plans/allowances/:requestId", { requestId: "new" }), {
      kind: "error",
      message: "allowanceWizard.draftGone",
    });
  if (found.draft.submitted)
    return redirectWithFlash(request, LIST, { kind: "info", message: "allowanceWizard.alreadySent" });
  return found.draft;
}

async function flowContext(
  request: Request,
  account: AllowanceFlowContext["account"],
  draft: AllowanceDraft,
): Promise<AllowanceFlowContext> {
  const url = new URL(request.url);
  const step = url.searchParams.get("step");
  return {
    request,
    platform: await getPlatform(),
    account,
    draft,
    step,
    today: todayInParis(),
    closeTo: worthKeeping(draft) ? draftPath(draft.id, step, { close: "1" }) : internalPath(LIST, {}),
  };
}

/**
 * `new` without a draft: the types this person may ask for, or (`?type=…`, from this site) a new draft
 * of that type, at its first step.
 */
async function typeChoice(request: Request, userId: string): Promise<FrameView> {
  const { db } = await getPlatform();
  const types = await allowanceTypesFor(db, userId);
  const asked = new URL(request.url).searchParams.get("type");
  const choose: FrameView = {
    kind: "choose",
    closeTo: LIST,
    types: types.map((type) => ({
      type,
      href: internalPath("/plans/allowances/:requestId", { requestId: "new" }, { search: { type } }),
    })),
  };
  if (asked === null) return choose;
  const type = askedType(asked);
  if (!type || !types.includes(type)) return { kind: "notAllowed", closeTo: LIST };
  // A link from another site makes no draft (decision 0048): the choice of types, whose links are this site's.
  if (!shownFromThisSite(request)) return choose;
  // The refund wizard's mobility road links here: the draft is made on this GET, then the URL names it
  // (a reload of the draft's URL finds the same draft; old untouched drafts are dropped, decision 0026).
  const draft = await createAllowanceDraft(db, userId, type);
  throw internalRedirect(draftPath(draft.id, type === "subscription" ? null : "intro"));
}

export async function allowanceWizardLoader({ request, params, context }: Args): Promise<FrameView> {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const url = new URL(request.url);

  if (params.requestId !== "new") {
    const allowance = await getAllowance(db, account.id, params.requestId);
    if (!allowance) throw data(null, { status: 404 });
    return { kind: "allowance", closeTo: LIST, allowance: summaryOf(allowance) };
  }

  const draftParam = url.searchParams.get("draft");
  if (draftParam === null) return typeChoice(request, account.id);
  const draft = await findDraft(request, account.id, draftParam);
  if (draft instanceof Response) throw draft;
  const ctx = await flowContext(request, account, draft);
  if (url.searchParams.get("close") === "1" && worthKeeping(draft)) {
    const resume = draftPath(draft.id, ctx.step);
    return {
      kind: "confirmClose",
      closeTo: resume,
      type: draft.type,
      here: draftPath(draft.id, ctx.step, { close: "1" }),
      resume,
    };
  }
  return flowOf(draft).load(ctx);
}

/**
 * The action: the close confirmation is the frame's; any other post is the draft's flow's, which reads
 * the body itself, so the frame never does.
 */
export async function allowanceWizardAction({ request, params, context }: Args) {
  const account = context.get(accountContext);
  const platform = await getPlatform();
  const url = new URL(request.url);
  const draftParam = url.searchParams.get("draft");
  if (params.requestId !== "new" || draftParam === null) {
    // The read-only panel and the type choice have no form: a body is read first (one that cannot be read
    // is a 400 as such), then a foreign allowance is a 404 and anything else an unknown intent.
    await plainForm(request);
    if (params.requestId !== "new" && !(await getAllowance(platform.db, account.id, params.requestId)))
      throw data(null, { status: 404 });
    throw unknownIntent();
  }
  const draft = await findDraft(request, account.id, draftParam);
  if (draft instanceof Response) return draft;

  if (url.searchParams.get("close") === "1") {
    switch (intentOf(await plainForm(request), CLOSE_INTENT)) {
      case CLOSE_INTENT.discard:
        break;
    }
    await discardAllowanceDraft(platform.db, account.id, draft.id);
    // Files added for this draft go too (the receipts service keeps those in use elsewhere).
    for (const id of [draft.mediaId, draft.secondMediaId]) if (id) await deleteReceipt(platform, account.id, id);
    return internalRedirect(LIST);
  }

  return flowOf(draft).act(await flowContext(request, account, draft));
}

/** An allowance as the read-only panel explains it: the list's item, its documents with their download links. */
function summaryOf(item: AllowanceListItem): AllowanceSummaryView {
  return {
    ...item,
    media: item.media.map((m) => ({
      id: m.id,
      label: m.label,
      href: internalPath("/plans/expense-requests/receipts/:fileId", { fileId: m.id }),
    })),
  };
}
