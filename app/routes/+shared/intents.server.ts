import { refusal } from "~/routes/+shared/request.server";
import { INTENT_FIELD, type Intents } from "~/routes/+shared/intents";

/**
 * The answer to an intent the route does not declare (missing, misspelt, from an old page or a forged
 * request): the error page, status 400, in French. The same on every route.
 */
export function unknownIntent() {
  return refusal(400, "errors.unknownIntent");
}

/**
 * The submitted intent among the route's declared ones; throws `unknownIntent()` for any other. Dispatch
 * on it with a `switch`.
 */
export function intentOf<Name extends string>(form: FormData, declared: Intents<Name>): Name {
  const value = form.get(INTENT_FIELD);
  if (typeof value === "string" && Object.hasOwn(declared, value)) return value as Name;
  throw unknownIntent();
}
