import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { cardChoiceSchema, deliveryAddressSchema, newPinSchema } from "~/domain/schemas";
import { DEFAULT_COUNTRY } from "~/domain/countries";
import { getPlatform } from "~/.server/platform";
import { internalRedirect, type InternalPath, type InternalTarget } from "~/routes/+shared/redirects.server";
import { badRequest, redirectWithFlash } from "~/routes/+shared/request.server";
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
import { WIZARD_STEPS, type WizardActionData, type WizardAddress, type WizardStep, type WizardView } from "./card-wizard";

export { WIZARD_STEPS, type WizardActionData, type WizardAddress, type WizardStep, type WizardView };


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

export async function loadCardWizard(request: Request, userId: string, routes: WizardRoutes): Promise<{ view: WizardView; status: 200 | 400 }> {
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

  let step: WizardStep = (WIZARD_STEPS as readonly string[]).includes(stepParam) ? (stepParam as WizardStep) : "card";
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


function refused(step: WizardStep, errors: WizardActionData["errors"], values?: WizardActionData["values"], done?: string) {
  return badRequest<WizardActionData>({ step, errors, values, attempt: crypto.randomUUID(), done });
}

/** One action for every step: the hidden `step` field says which form was sent. */
export async function cardWizardAction(request: Request, userId: string, routes: WizardRoutes) {
  const { db, issuer } = await getPlatform();
  const form = await request.formData();
  const step = String(form.get("step") ?? "");
  const requestId = form.get("request");
  if (!isRequestId(requestId)) return refused("card", { form: "cards.create.unknownRequest" });

  const success = async (cardId: string | null, replayed: boolean) =>
    replayed
      ? // A second submit of the same request (double click, Back then resubmit): nothing new is made.
        refused("card", { form: "cards.create.alreadyCreated" }, undefined, routes.created(cardId))
      : redirectWithFlash(request, routes.created(cardId), { kind: "success", message: cardId ? "cards.create.created" : "cards.create.createdPending" });

  switch (step) {
    case "card": {
      const submission = parseWithZod(form, { schema: cardChoiceSchema });
      const values = { group: String(form.get("group") ?? ""), type: String(form.get("type") ?? "") };
      if (submission.status !== "success") {
        return refused("card", { group: submission.error?.group?.[0], type: submission.error?.type?.[0] }, values);
      }
      const choice = await saveCardChoice(db, userId, requestId, { groupId: submission.value.group, type: submission.value.type });
      if (choice === "noGroup") return refused("card", { group: "errors.funderUnknown" }, values);
      if (choice === "noLicence") return refused("card", { type: "errors.noLicenceForType" }, values);
      if (choice === "forged") return refused("card", { form: "cards.create.unknownRequest" });
      if (choice === "submitted") {
        const existing = await getCardRequest(db, userId, requestId);
        return success(existing?.cardId ?? null, true);
      }
      if (submission.value.type === "physical") return internalRedirect(routes.step("pin", requestId));
      return finish();
    }
    case "pin": {
      const current = await getCardRequest(db, userId, requestId);
      if (!current) return refused("card", { form: "cards.create.unknownRequest" });
      if (current.status !== "draft") return success(current.cardId, true);
      const pin = String(form.get("pin") ?? "");
      const confirmation = String(form.get("confirmation") ?? "");
      // Coming back to this step: empty fields keep the PIN already chosen.
      if (current.hasPin && pin === "" && confirmation === "") return internalRedirect(routes.step("address", requestId));
      const submission = parseWithZod(form, { schema: newPinSchema });
      if (submission.status !== "success") {
        return refused("pin", { pin: submission.error?.pin?.[0], confirmation: submission.error?.confirmation?.[0] });
      }
      const saved = await saveCardPin(db, issuer, userId, requestId, submission.value.pin);
      if (saved === "issuerFailed") return refused("pin", { form: "cards.create.failed" });
      if (saved !== "ok") return refused("card", { form: "cards.create.unknownRequest" });
      return internalRedirect(routes.step("address", requestId));
    }
    case "address": {
      const submission = parseWithZod(form, { schema: deliveryAddressSchema });
      const values = Object.fromEntries(["line1", "line2", "zipcode", "city", "country"].map((k) => [k, String(form.get(k) ?? "")]));
      if (submission.status !== "success") {
        const e = submission.error ?? {};
        return refused("address", { line1: e.line1?.[0], line2: e.line2?.[0], zipcode: e.zipcode?.[0], city: e.city?.[0], country: e.country?.[0] }, values);
      }
      const saved = await saveShippingAddress(db, userId, requestId, submission.value);
      if (saved === "submitted") return success((await getCardRequest(db, userId, requestId))?.cardId ?? null, true);
      if (saved !== "ok") return refused("card", { form: "cards.create.unknownRequest" });
      return internalRedirect(routes.step("summary", requestId));
    }
    case "summary":
      return finish();
    default:
      return refused("card", { form: "cards.create.unknownStep" });
  }

  async function finish() {
    const result = await submitCardRequest(db, issuer, userId, requestId as string);
    switch (result.kind) {
      case "created":
        return success(result.cardId, false);
      case "replayed":
        return success(result.cardId, true);
      case "notFound":
        return refused("card", { form: "cards.create.unknownRequest" });
      case "incomplete":
        return refused(result.missing, { form: result.missing === "pin" ? "cards.create.pinMissing" : "cards.create.addressMissing" });
      case "noLicence":
        return refused("card", { type: "errors.noLicenceForType" });
      case "pinRefused":
        return refused("pin", { pin: "errors.pinRefused" });
      case "addressRefused": {
        const current = await getCardRequest(db, userId, requestId as string);
        return refused("address", result.field ? { [result.field]: `errors.addressRefused.${result.field}` } : { form: "errors.addressRefused.form" }, current?.address ? { ...toWizardAddress(current.address) } : undefined);
      }
      case "issuerFailed":
        return refused(step === "card" ? "card" : "summary", { form: "cards.create.failed" });
    }
  }
}
