import { data } from "react-router";
import { z } from "zod";
import { cardChoiceSchema, deliveryAddressSchema, newPinSchema } from "~/domain/schemas";
import { DEFAULT_COUNTRY } from "~/domain/countries";
import { getPlatform, type Platform } from "~/.server/platform";
import { internalRedirect, type InternalPath, type InternalTarget } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { parseForm, reply } from "~/routes/+shared/forms.server";
import { unknownIntent } from "~/routes/+shared/intents.server";
import { formOf, refusedStep, runStep, stepOf, type StepHandlers } from "~/routes/+shared/wizard.server";
import {
  cardCreationOptions,
  getCardRequest,
  isRequestId,
  newRequestId,
  profileAddress,
  saveCardChoice,
  saveCardPin,
  saveShippingAddress,
  submitCardRequest,
  type CardRequestView,
} from "~/.server/services/card-creation";
import type { ShippingAddress } from "~/.server/providers/issuer/port";
import { recordInBackground } from "~/.server/services/tag-events";
import type { TagEvent } from "~/domain/tag-events";
import { WIZARD_STEPS, type WizardActionData, type WizardAddress, type WizardStep, type WizardView } from "./wizard";

/**
 * The card creation wizard (spec 000 §2 "Create card", §4, §5), shared by the card page's panel and
 * onboarding. The step and the request id live in the URL (`?step=pin&request=creq_…`); the answers
 * live in the card request on the server, so Back and Forward never lose them and need no JavaScript.
 */
const toWizardAddress = (a: ShippingAddress | null): WizardAddress => ({
  line1: a?.line1 ?? "",
  line2: a?.line2 ?? "",
  zipcode: a?.zipcode ?? "",
  city: a?.city ?? "",
  country: a?.country ?? DEFAULT_COUNTRY,
});

/** The furthest step a request can be on: a physical card needs its PIN before its address, both before the summary. */
function furthestStep(request: CardRequestView | null): WizardStep {
  if (!request || request.type === "virtual") return "card";
  if (!request.hasPin) return "pin";
  if (!request.address) return "address";
  return "summary";
}

function stepAllowed(step: WizardStep, request: CardRequestView | null): boolean {
  return WIZARD_STEPS.indexOf(step) <= WIZARD_STEPS.indexOf(furthestStep(request));
}

export interface WizardRoutes {
  /** The wizard's own page at a step of this request, e.g. /cards/42/new-card?step=pin&request=creq_… */
  step: (step: WizardStep, requestId: string) => InternalPath;
  /** Where to go once the card is asked for (cardId null: the issuer is still making it). */
  created: (cardId: string | null) => InternalTarget;
}

export async function loadCardWizard(
  request: Request,
  userId: string,
  routes: WizardRoutes,
): Promise<{ view: WizardView; status: 200 | 400 }> {
  const { db } = await getPlatform();
  const url = new URL(request.url);
  const options = await cardCreationOptions(db, userId);
  const requestParam = url.searchParams.get("request");
  const stepParam = url.searchParams.get("step") ?? "card";
  let notice: string | null = null;

  let cardRequest: CardRequestView | null = null;
  if (requestParam !== null) {
    cardRequest = isRequestId(requestParam) ? await getCardRequest(db, userId, requestParam) : null;
    if (!cardRequest) notice = "cards.create.unknownRequest";
  }
  const done = cardRequest && cardRequest.status !== "draft" ? routes.created(cardRequest.cardId) : null;
  if (done) notice = "cards.create.alreadyCreated";

  let step: WizardStep = stepOf(WIZARD_STEPS, stepParam) ?? "card";
  if (!notice && step !== stepParam) notice = "cards.create.unknownStep";
  if (!stepAllowed(step, cardRequest)) {
    notice ??= "cards.create.stepNotReady";
    step = furthestStep(cardRequest);
  }

  const groupParam = url.searchParams.get("group");
  const shownGroup =
    options.groups.find((g) => g.id === groupParam) ??
    options.groups.find((g) => g.id === cardRequest?.groupId) ??
    options.groups.find((g) => g.licences.physical + g.licences.virtual > 0) ??
    options.groups[0];
  const typeParam = url.searchParams.get("type");
  const address = cardRequest?.address ?? (step === "address" ? await profileAddress(db, userId) : null);

  const view: WizardView = {
    step,
    requestId: cardRequest?.id ?? newRequestId(),
    groups: options.groups,
    blocked: options.blocked,
    groupId: shownGroup?.id ?? null,
    type: typeParam === "physical" || typeParam === "virtual" ? typeParam : (cardRequest?.type ?? null),
    hasPin: cardRequest?.hasPin ?? false,
    address: toWizardAddress(address),
    notice,
    done,
  };
  return { view, status: notice ? 400 : 200 };
}

/** The loader's answer for a route: the view, with a 400 status when the URL asked for the impossible. */
export async function cardWizardLoaderData(request: Request, userId: string, routes: WizardRoutes) {
  const { view, status } = await loadCardWizard(request, userId, routes);
  return data(view, { status });
}

/** The card wizard's extra fields beside the kit's envelope (`WizardActionData`). */
type CardReplyExtra = Omit<WizardActionData, "step" | "lastResult">;

/**
 * A refused step: conform's reply (HTTP 400) for the step to show again. Each step's form is parsed by
 * its own schema; a refusal found at another step (the issuer refusing the PIN or the address at the
 * summary) answers as if that step's form had been sent with what the request holds (`formOf`).
 */
const refused = (step: WizardStep, lastResult: WizardActionData["lastResult"], extra?: CardReplyExtra) =>
  refusedStep<WizardStep, CardReplyExtra>(step, lastResult, extra);

const STEP_SCHEMAS = {
  card: cardChoiceSchema,
  pin: newPinSchema,
  address: deliveryAddressSchema,
  summary: z.object({}),
} as const;
const SECRETS = { hideFields: ["pin", "confirmation"] };

/** What the issuer said, in the person's language when the catalogue has it (spec 000 §8: "shown with server messages"). */
function issuerReasons(code: string, message: string | null): { formErrors: string[]; serverMessage: string | null } {
  // The issuer not answering says on its own what happened and what to do (decision 0043).
  if (code === "unavailable") return { formErrors: ["cards.create.reasons.unavailable"], serverMessage: message };
  const known = ["rejected", "card_canceled", "card_not_found"].includes(code);
  return {
    formErrors: ["cards.create.failed", ...(known ? [`cards.create.reasons.${code}`] : [])],
    serverMessage: message,
  };
}

/** The wizard's final submission that asks for the card (the tag manager's, decision 0031). */
const CARD_SUBMITTED: TagEvent = { name: "submitCreateCard", properties: {} };

/** What each step's handler receives: the form sent, parsed by its step's schema, for a well-formed request id. */
interface CardPost {
  platform: Platform;
  request: Request;
  userId: string;
  routes: WizardRoutes;
  form: FormData;
  /** The step's form parsed by its schema: what a refusal outside the step's own fields replies to. */
  submission: ReturnType<typeof parseForm>;
  requestId: string;
}

type CardAnswer = Response | ReturnType<typeof refused>;

/** The request asked for: where its card is, with a flash; a replay (double click, Back then resubmit) makes nothing. */
async function success(ctx: CardPost, cardId: string | null, replayed: boolean): Promise<CardAnswer> {
  return replayed
    ? refused("card", reply(ctx.submission, { formErrors: ["cards.create.alreadyCreated"], ...SECRETS }), {
        done: ctx.routes.created(cardId),
      })
    : redirectWithFlash(ctx.request, ctx.routes.created(cardId), {
        kind: "success",
        message: cardId ? "cards.create.created" : "cards.create.createdPending",
        tagEvent: CARD_SUBMITTED,
      });
}

/** A request already submitted, found at a step that would change it: the replay's answer, with its card. */
async function replayed(ctx: CardPost): Promise<CardAnswer> {
  const existing = await getCardRequest(ctx.platform.db, ctx.userId, ctx.requestId);
  return success(ctx, existing?.cardId ?? null, true);
}

/** Asks for the card (the summary, or a virtual card's choice) and words each refusal at the step it concerns. */
async function finish(ctx: CardPost, from: "card" | "summary"): Promise<CardAnswer> {
  const { platform, userId, requestId, submission } = ctx;
  const { db, issuer, messenger, push } = platform;
  const result = await submitCardRequest(db, issuer, userId, requestId, new Date(), { messenger, push });
  switch (result.kind) {
    case "created":
      // Recorded once the card is asked for, never for a refused or replayed submission; nobody waits for it.
      void recordInBackground(platform, userId, CARD_SUBMITTED);
      return success(ctx, result.cardId, false);
    case "replayed":
      return success(ctx, result.cardId, true);
    case "notFound":
      return refused("card", reply(submission, { formErrors: ["cards.create.unknownRequest"] }));
    case "incomplete":
      return refused(
        result.missing,
        reply(submission, {
          formErrors: [result.missing === "pin" ? "cards.create.pinMissing" : "cards.create.addressMissing"],
        }),
      );
    case "noLicence":
      return refused("card", reply(submission, { fieldErrors: { type: ["errors.noLicenceForType"] } }));
    case "pinRefused":
      return refused(
        "pin",
        reply(parseForm(formOf({}), newPinSchema), { fieldErrors: { pin: ["errors.pinRefused"] }, ...SECRETS }),
      );
    case "addressRefused": {
      // The address form again, with what the request holds and the issuer's refusal at its field.
      const current = await getCardRequest(db, userId, requestId);
      const held = parseForm(formOf({ ...toWizardAddress(current?.address ?? null) }), deliveryAddressSchema);
      const refusal = result.field
        ? { fieldErrors: { [result.field]: [`errors.addressRefused.${result.field}`] } }
        : { formErrors: ["errors.addressRefused.form"] };
      return refused("address", reply(held, refusal));
    }
    case "issuerFailed": {
      const { formErrors, serverMessage } = issuerReasons(result.code, result.message);
      return refused(from, reply(submission, { formErrors, ...SECRETS }), { serverMessage, requestId });
    }
  }
}

/** Each step's form: the step's answers saved on the request, then the next step (or the card asked for). */
const STEP_POSTS: StepHandlers<WizardStep, CardPost, CardAnswer> = {
  card: async (ctx) => {
    const choice = parseForm(ctx.form, cardChoiceSchema);
    if (choice.status !== "success") return refused("card", reply(choice));
    const saved = await saveCardChoice(ctx.platform.db, ctx.userId, ctx.requestId, {
      groupId: choice.value.group,
      type: choice.value.type,
    });
    if (saved.kind === "noGroup")
      return refused("card", reply(choice, { fieldErrors: { group: ["errors.funderUnknown"] } }));
    if (saved.kind === "noLicence")
      return refused("card", reply(choice, { fieldErrors: { type: ["errors.noLicenceForType"] } }));
    if (saved.kind === "forged") return refused("card", reply(choice, { formErrors: ["cards.create.unknownRequest"] }));
    if (saved.kind === "submitted") return replayed(ctx);
    if (choice.value.type === "physical") return internalRedirect(ctx.routes.step("pin", ctx.requestId));
    return finish(ctx, "card");
  },
  pin: async (ctx) => {
    const { platform, userId, requestId, form, routes } = ctx;
    const current = await getCardRequest(platform.db, userId, requestId);
    if (!current)
      return refused("card", reply(ctx.submission, { formErrors: ["cards.create.unknownRequest"], ...SECRETS }));
    if (current.status !== "draft") return success(ctx, current.cardId, true);
    // Coming back to this step: empty fields keep the PIN already chosen.
    if (current.hasPin && !form.get("pin") && !form.get("confirmation"))
      return internalRedirect(routes.step("address", requestId));
    const pin = parseForm(form, newPinSchema);
    // PINs are never sent back to the browser, even a wrong one: only the messages are.
    if (pin.status !== "success") return refused("pin", reply(pin, SECRETS));
    const saved = await saveCardPin(platform.db, platform.issuer, userId, requestId, pin.value.pin);
    if (saved.kind === "issuerFailed")
      return refused("pin", reply(pin, { formErrors: ["cards.create.failed"], ...SECRETS }));
    if (saved.kind !== "ok")
      return refused("card", reply(pin, { formErrors: ["cards.create.unknownRequest"], ...SECRETS }));
    return internalRedirect(routes.step("address", requestId));
  },
  address: async (ctx) => {
    const address = parseForm(ctx.form, deliveryAddressSchema);
    if (address.status !== "success") return refused("address", reply(address));
    const saved = await saveShippingAddress(ctx.platform.db, ctx.userId, ctx.requestId, address.value);
    if (saved.kind === "submitted") return replayed(ctx);
    if (saved.kind !== "ok") return refused("card", reply(address, { formErrors: ["cards.create.unknownRequest"] }));
    return internalRedirect(ctx.routes.step("summary", ctx.requestId));
  },
  summary: (ctx) => finish(ctx, "summary"),
};

/** One action for every step: the hidden `step` field says which form was sent (WIZARD_STEPS, declared once). */
export async function cardWizardAction(request: Request, userId: string, routes: WizardRoutes) {
  const form = await request.formData();
  const step = String(form.get("step") ?? "");
  const known = stepOf(WIZARD_STEPS, step);
  if (!known) throw unknownIntent();
  const submission = parseForm(form, STEP_SCHEMAS[known]);
  const requestId = form.get("request");
  if (!isRequestId(requestId))
    return refused("card", reply(submission, { formErrors: ["cards.create.unknownRequest"], ...SECRETS }));
  const platform = await getPlatform();
  return runStep(STEP_POSTS, known, { platform, request, userId, routes, form, submission, requestId });
}
