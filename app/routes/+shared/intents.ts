/**
 * Intents declared once per route (decision 0021): `const INTENT = intents("save", "cancel")` is used by
 * the JSX (`<button name="intent" value={INTENT.cancel}>`) and by the action (`switch (intentOf(form,
 * INTENT))`, see `intents.server.ts`), so that a renamed intent cannot be missed on one side.
 */
export type Intents<Name extends string> = { readonly [K in Name]: K };

export function intents<const Names extends readonly string[]>(...names: Names): Intents<Names[number]> {
  return Object.freeze(Object.fromEntries(names.map((name) => [name, name]))) as Intents<Names[number]>;
}

/** The name of the submit buttons' field. */
export const INTENT_FIELD = "intent";
