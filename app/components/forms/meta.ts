import { useState } from "react";
import { useActionData } from "react-router";

/**
 * What the form components read from a field's metadata (`fields.x` from `useForm`, conform's answer read in
 * the browser: decision 0077): its id and name, its errors (catalogue keys) and the value the server sent back. Structural, so that any field of
 * any form fits.
 */
export interface FieldMeta {
  id: string;
  name: string;
  errorId: string;
  errors?: string[];
  initialValue?: unknown;
  key?: string;
  /** Never set by `useForm` (no constraint reaches the browser): the `required` prop says it. */
  required?: boolean;
}

/** The first error of a field, a catalogue key. */
export function errorOf(field: FieldMeta): string | undefined {
  return field.errors?.[0];
}

/** The value the server sent back for a text field, if any. */
export function textOf(field: FieldMeta): string | undefined {
  return typeof field.initialValue === "string" ? field.initialValue : undefined;
}

/**
 * A key that changes with every answer of the action, so that a secret (password, PIN, code) is emptied
 * after each refused submission even when JavaScript keeps the page: the server never sends it back
 * (`hideFields`), and this remounts the control the browser still holds it in.
 */
export function useReplyKey(): number {
  const actionData = useActionData();
  // Information from previous renders, as React's docs store it: updated during render, not in an effect.
  const [seen, setSeen] = useState<{ data: unknown; count: number }>({ data: actionData, count: 0 });
  if (seen.data === actionData) return seen.count;
  setSeen({ data: actionData, count: seen.count + 1 });
  return seen.count + 1;
}
