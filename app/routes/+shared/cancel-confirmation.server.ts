import { intentOf } from "~/routes/+shared/intents.server";
import type { InternalTarget } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { CANCEL_INTENT, type CancelWords } from "../../components/forms/CancelConfirmation";

/**
 * The server half of the cancel confirmation (CancelConfirmation.tsx), the same for every feature: an
 * unknown, foreign or no longer cancellable thing goes back to its list with a message, on the page as
 * on the post; the post says what became of the cancelling.
 */

interface CancelPlace {
  request: Request;
  /** The list the panel is over, where every refusal goes. */
  list: InternalTarget;
  words: CancelWords;
}

/** The thing to cancel when it is the person's and still cancellable; otherwise the redirect to the list, thrown. */
export async function cancellableOrBack<T extends { isCancellable: boolean }>(
  { request, list, words }: CancelPlace,
  found: T | null | undefined,
): Promise<T> {
  if (!found) throw await redirectWithFlash(request, list, { kind: "error", message: words.notFound });
  if (!found.isCancellable)
    throw await redirectWithFlash(request, list, { kind: "error", message: words.notCancellable });
  return found;
}

export type CancelOutcome = { kind: "cancelled" } | { kind: "notFound" } | { kind: "notCancellable" };

/**
 * The confirmation's post: its one intent (any other is a 400 in French, as on every route), then the
 * feature's cancelling, and where each outcome goes (`done`: the list, or a tab of it).
 */
export async function confirmCancel(
  place: CancelPlace & { done?: InternalTarget },
  cancel: () => Promise<CancelOutcome>,
): Promise<Response> {
  const { request, list, words, done = list } = place;
  switch (intentOf(await request.formData(), CANCEL_INTENT)) {
    case CANCEL_INTENT.cancel:
      break;
  }
  const result = await cancel();
  switch (result.kind) {
    case "cancelled":
      return redirectWithFlash(request, done, { kind: "success", message: words.done });
    case "notFound":
      return redirectWithFlash(request, list, { kind: "error", message: words.notFound });
    case "notCancellable":
      return redirectWithFlash(request, list, { kind: "error", message: words.notCancellable });
  }
}
