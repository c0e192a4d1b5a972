import type { DefaultValue, FieldMetadata as ConformField, SubmissionResult } from "@conform-to/react";
import { useEffect, useId, useLayoutEffect, useRef, useState } from "react";

/*
 * The browser's side of the form contract (decisions 0021, 0077). conform stays the contract on the server
 * (`parseWithZod`, `submission.reply()`, the 400 answer); the browser only reads that answer, a
 * `SubmissionResult`: the ids and names of the fields, their errors, the values to show, the form's own errors.
 * This module reads it with the metadata conform's `useForm` gave (same ids, same shape), without conform's
 * browser code (its form state machine, client validation, intents), which the portal never used: 8.5 KB
 * gzip on every page with a form, now about 1 KB.
 */

// conform's own helper types, so that a form's schema types its fields as conform's did.
type BaseCombine<T, K extends PropertyKey = T extends unknown ? keyof T : never> = T extends unknown
  ? T & Partial<Record<Exclude<K, keyof T>, never>>
  : never;
type Combine<T> = { [K in keyof BaseCombine<T>]: BaseCombine<T>[K] };
type Primitive = string | number | bigint | boolean | Date | File | null | undefined;

/** What conform said of a field, the part the portal reads (`fields.x`). */
export type FieldMetadata<Schema = unknown, FormError = string[]> = {
  /** `${form id}-${name}`, as conform names it: the same on the server and in the browser. */
  id: string;
  name: string;
  errorId: string;
  descriptionId: string;
  /** Changes when the form starts afresh, so that a control keyed by it is mounted again with its default. */
  key: string | undefined;
  /** What the control starts from: the form's default, or what the answer on the page's load sent back. */
  initialValue: ConformField<Schema>["initialValue"];
  /** What the field holds now: the answer's value, or (with JS) what is typed, for a field of one value. */
  value: ConformField<Schema>["value"];
  errors: FormError | undefined;
  allErrors: Record<string, FormError>;
  valid: boolean;
  /** Never set: required fields say so by their `required` prop (no constraint reaches the browser). */
  required?: boolean;
} & ([Schema] extends [Primitive]
  ? unknown
  : [Schema] extends [Array<infer Item> | null | undefined]
    ? { getFieldList: () => FieldMetadata<Item, FormError>[] }
    : // conform's own bound: any object is a fieldset.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      [Schema] extends [Record<string, any> | null | undefined]
      ? { getFieldset: () => Fieldset<Schema, FormError> }
      : unknown);

export type Fieldset<Schema, FormError = string[]> = Required<{
  [Key in keyof Combine<Schema>]: FieldMetadata<Combine<Schema>[Key], FormError>;
}>;

/** What conform said of the whole form (`form`): its id, its own errors, all errors, whether it is valid. */
export type FormMetadata<Schema, FormError = string[]> = Omit<FieldMetadata<Schema, FormError>, "getFieldset"> & {
  status?: "success" | "error";
  getFieldset: () => Fieldset<Schema, FormError>;
};

export interface FormOptions<Schema, FormError> {
  /** The form's id; every form of the portal names one (else React's `useId`, as conform did). */
  id?: string;
  /** The server's answer to the current submission (the action's data), if any. */
  lastResult?: SubmissionResult<FormError> | null;
  defaultValue?: DefaultValue<Schema>;
}

/** What the hook remembers between renders. */
export interface FormMemory {
  id: string;
  /** How many times the form started afresh: the fields' keys. */
  fresh: number;
  /** The values the controls start from (conform's `initialValue`): set on mount and when starting afresh. */
  initial: unknown;
  /** An answer has been shown since the form last started afresh. */
  answered: boolean;
  /** The last answer that started the form afresh (`reply({ resetForm: true })`). */
  reset: unknown;
  /** What is typed (with JS), for the answer it was typed under. */
  typed?: { under: unknown; data: FormData };
}

/** conform's values: a boolean is "on" or nothing, a number or a day a string; empty strings and lists are nothing. */
export function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? value.map(normalise) : undefined;
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === "object") {
    const entries = Object.entries(value)
      .map(([key, item]) => [key, normalise(item)])
      .filter(([, item]) => item !== undefined);
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  if (typeof value === "boolean") return value ? "on" : undefined;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  return value === "" || value === null ? undefined : value;
}

/**
 * The memory for this render, or null when it does not change. The server's answer to the CURRENT submission
 * is the only thing the form renders: once an answer has been shown, `lastResult` going away means it is no
 * longer current (a later submission was accepted and redirected, or the page passes none after a success of
 * its own). The form then starts afresh — its errors, the title's « Erreur : », the error summary,
 * `aria-invalid` gone and the fields back to their defaults — instead of showing the refusal of a submission
 * that has since succeeded (RGAA 8.6, ACCESSIBILITY.md "Forms and errors"). So does an answer without values,
 * what `reply({ resetForm: true })` sends. Before any answer nothing changes, so a form is never emptied while
 * the person types in it after hydration.
 */
export function nextMemory<Schema, FormError>(
  memory: FormMemory,
  id: string,
  { lastResult, defaultValue }: FormOptions<Schema, FormError>,
): FormMemory | null {
  const afresh =
    id !== memory.id ||
    (lastResult ? lastResult.initialValue === null && lastResult !== memory.reset : memory.answered);
  if (afresh)
    return {
      id,
      fresh: memory.fresh + 1,
      initial: normalise(defaultValue),
      answered: Boolean(lastResult),
      reset: lastResult?.initialValue === null ? lastResult : memory.reset,
    };
  return lastResult && !memory.answered ? { ...memory, answered: true } : null;
}

/** The memory on mount: the controls start from the answer's values when the page comes with one (JS off). */
export function firstMemory<Schema, FormError>(id: string, options: FormOptions<Schema, FormError>): FormMemory {
  const { lastResult, defaultValue } = options;
  return {
    id,
    fresh: 0,
    initial: normalise(lastResult?.initialValue ?? defaultValue),
    answered: Boolean(lastResult),
    reset: lastResult?.initialValue === null ? lastResult : undefined,
  };
}

/** `key` is under `name` (conform's path prefix): itself, one of its properties or one of its items. */
const under = (key: string, name: string) =>
  !name || key === name || key.startsWith(`${name}.`) || key.startsWith(`${name}[`);

type AnyField = Record<string, unknown>;

/**
 * The form's metadata and its fields from the memory and the current answer. `onValueRead` is called when
 * a field's `value` is read, so that typing is followed only by forms that show it.
 */
export function formMetadata<Schema, FormError>(
  memory: FormMemory,
  lastResult: SubmissionResult<FormError> | null | undefined,
  onValueRead: () => void,
): FormMetadata<Schema, FormError> {
  const answer = lastResult && lastResult.initialValue !== null ? lastResult : undefined;
  const errors: Record<string, FormError> = {};
  for (const [name, error] of Object.entries(answer?.error ?? {})) if (error) errors[name] = error;
  const typed = memory.typed && memory.typed.under === lastResult ? memory.typed.data : undefined;
  const field = (name: string, initial: unknown, value: unknown): AnyField => {
    const id = name ? `${memory.id}-${name}` : memory.id;
    const child = (key: string | number) => {
      const path = typeof key === "number" ? `${name}[${key}]` : name ? `${name}.${key}` : key;
      const at = (tree: unknown) => (tree && typeof tree === "object" ? (tree as AnyField)[key] : undefined);
      return field(path, at(initial), at(value));
    };
    return {
      id,
      name,
      errorId: `${id}-error`,
      descriptionId: `${id}-description`,
      key: memory.fresh ? `${memory.fresh}/${name}` : undefined,
      initialValue: initial,
      get value() {
        onValueRead();
        if (!typed || !name) return value;
        const all = typed.getAll(name);
        return normalise(all.length > 1 ? all : all[0]);
      },
      errors: errors[name],
      allErrors: Object.fromEntries(Object.entries(errors).filter(([key]) => under(key, name))),
      valid: !Object.keys(errors).some((key) => under(key, name)),
      getFieldset: () => new Proxy({}, { get: (_, key) => (typeof key === "string" ? child(key) : undefined) }),
      getFieldList: () => (Array.isArray(initial) ? initial.map((_, index) => child(index)) : []),
    };
  };
  const value = answer?.initialValue !== undefined ? normalise(answer.initialValue) : memory.initial;
  // Not spread: that would read `value`, and every form would follow typing.
  return Object.assign(field("", memory.initial, value), { status: answer?.status }) as FormMetadata<Schema, FormError>;
}

/**
 * The portal's `useForm` (decision 0077), with conform's call and metadata: `const [form, fields] =
 * useForm<Schema>({ id, lastResult, defaultValue })`. With JavaScript, a refused answer arriving moves focus to
 * its first field in error, as conform did (the error summary, when the page has one, then takes it).
 */
// conform's own bound: `any` lets an interface (no index signature) be a form's shape, as with conform itself.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function useForm<Schema extends Record<string, any>, FormError = string[]>(
  options: FormOptions<Schema, FormError>,
): [FormMetadata<Schema, FormError>, Fieldset<Schema, FormError>] {
  const reactId = useId();
  const id = options.id ?? reactId;
  const { lastResult } = options;
  const [memory, setMemory] = useState(() => firstMemory(id, options));
  // Information from previous renders, as React's docs store it: updated during render, not in an effect.
  const next = nextMemory(memory, id, options);
  if (next) setMemory(next);
  // Set when this form's render reads a field's `value`, read by the input listener only: typing re-renders
  // the forms that show what is typed, and no other (conform's subscription did the same).
  const readsValue = useRef(false);
  // eslint-disable-next-line react-hooks/refs -- written by a getter during render, read only in the listener
  const form = formMetadata<Schema, FormError>(next ?? memory, lastResult, () => {
    readsValue.current = true;
  });
  useEffect(() => {
    const follow = (event: Event) => {
      const element = (event.target as HTMLInputElement).form;
      if (readsValue.current && element?.id === id)
        setMemory((current) => ({ ...current, typed: { under: lastResult, data: new FormData(element) } }));
    };
    document.addEventListener("input", follow);
    return () => document.removeEventListener("input", follow);
  }, [id, lastResult]);
  const shown = useRef(lastResult);
  const { allErrors } = form;
  useLayoutEffect(() => {
    if (shown.current === lastResult) return;
    shown.current = lastResult;
    if (lastResult?.status !== "error") return;
    for (const element of document.forms.namedItem(id)?.elements ?? [])
      if (
        (element instanceof HTMLInputElement ||
          element instanceof HTMLSelectElement ||
          element instanceof HTMLTextAreaElement) &&
        allErrors[element.name]
      ) {
        element.focus();
        break;
      }
  });
  return [form, form.getFieldset()];
}

/** The form element's props: its id, no browser validation (the server's is the rule), described by its error. */
export function getFormProps(form: { id: string; errorId: string; errors?: unknown }): {
  id: string;
  noValidate: boolean;
  "aria-describedby"?: string;
} {
  return form.errors
    ? { id: form.id, noValidate: true, "aria-describedby": form.errorId }
    : { id: form.id, noValidate: true };
}
