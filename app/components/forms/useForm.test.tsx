import type { SubmissionResult } from "@conform-to/react";
// The reference: conform's own hook, which the portal's reader replaces in the browser (decision 0077).
// eslint-disable-next-line no-restricted-imports
import { getFormProps as conformFormProps, useForm as conformUseForm } from "@conform-to/react";
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { firstMemory, formMetadata, getFormProps, nextMemory, useForm, type FormMemory } from "./useForm";

type Details = {
  email: string;
  terms: boolean;
  count: number;
  home: { line1: string; zipcode: string };
  payment_methods: { wallet_id: string; amount: string }[];
};

const defaultValue = {
  email: "marie@example.fr",
  terms: true,
  count: 3,
  home: { line1: "1 rue de la Paix", zipcode: "" },
  payment_methods: [
    { wallet_id: "w1", amount: "" },
    { wallet_id: "w2", amount: "12" },
  ],
};

const refusal: SubmissionResult<string[]> = {
  status: "error",
  initialValue: {
    email: "marie@",
    home: { line1: "2 rue", zipcode: "750" },
    payment_methods: [{ wallet_id: "w1", amount: "x" }, { wallet_id: "w2" }],
  },
  error: {
    "": ["errors.total"],
    email: ["errors.emailInvalid"],
    "home.zipcode": ["errors.zipcode"],
    "payment_methods[0].amount": ["errors.amount"],
  },
  fields: ["email", "home.line1", "home.zipcode", "payment_methods[0].amount"],
};

/** What the portal reads of a field, as plain data (conform's metadata reads through getters). */
function read(field: Record<string, unknown>) {
  const { id, name, errorId, descriptionId, initialValue, value, errors, allErrors, valid } = field;
  return { id, name, errorId, descriptionId, initialValue, value, errors, allErrors, valid };
}

function readAll(hook: typeof useForm, lastResult?: SubmissionResult<string[]> | null) {
  // Both hooks are given the same options; the result is read during the render, as a page does.
  let seen: unknown;
  function Probe() {
    const [form, fields] = hook<Details>({ id: "details", lastResult, defaultValue });
    const home = fields.home.getFieldset();
    const items = fields.payment_methods.getFieldList();
    seen = {
      form: { ...read(form as never), status: form.status },
      props: (hook === useForm ? getFormProps : conformFormProps)(form as never),
      fields: [fields.email, fields.terms, fields.count, home.line1, home.zipcode, fields.home].map((f) =>
        read(f as never),
      ),
      items: items.map((item) => [read(item as never), read(item.getFieldset().amount as never)]),
    };
    return null;
  }
  renderToStaticMarkup(<Probe />);
  return seen;
}

test("the reader gives conform's metadata: ids, names, values, errors, the form's props", () => {
  for (const lastResult of [undefined, refusal, { initialValue: null }]) {
    const conform = readAll(conformUseForm as unknown as typeof useForm, lastResult);
    const portal = readAll(useForm, lastResult);
    // conform's form props carry its submit handler, a no-op without client validation: the reader has none.
    const { onSubmit, ...conformProps } = (conform as { props: Record<string, unknown> }).props;
    expect(typeof onSubmit).toBe("function");
    expect({ ...(portal as object), props: (portal as { props: unknown }).props }).toEqual({
      ...(conform as object),
      props: conformProps,
    });
  }
});

test("a refused answer: field ids from the form's id, the form described by its error", () => {
  const portal = readAll(useForm, refusal) as {
    form: Record<string, unknown>;
    props: Record<string, unknown>;
    fields: Record<string, unknown>[];
  };
  expect(portal.props).toEqual({ id: "details", noValidate: true, "aria-describedby": "details-error" });
  expect(portal.form).toMatchObject({ errors: ["errors.total"], valid: false, status: "error" });
  expect(portal.fields[0]).toMatchObject({ id: "details-email", name: "email", errors: ["errors.emailInvalid"] });
  expect(portal.fields[4]).toMatchObject({ id: "details-home.zipcode", name: "home.zipcode", initialValue: "750" });
  expect(portal.fields[5]).toMatchObject({ valid: false, allErrors: { "home.zipcode": ["errors.zipcode"] } });
});

const options = { lastResult: undefined as SubmissionResult<string[]> | null | undefined, defaultValue };

/** The memory after each render with these answers, as the hook keeps it. */
function run(...answers: (SubmissionResult<string[]> | null | undefined)[]): FormMemory[] {
  let memory = firstMemory("details", { ...options, lastResult: answers[0] });
  const seen = [memory];
  for (const lastResult of answers.slice(1)) {
    memory = nextMemory(memory, "details", { ...options, lastResult }) ?? memory;
    seen.push(memory);
  }
  return seen;
}

const metadata = (memory: FormMemory, lastResult?: SubmissionResult<string[]> | null) =>
  formMetadata<Details, string[]>(memory, lastResult, () => undefined);

test("before any answer nothing changes: a form is never emptied while the person types", () => {
  const [first, again] = run(undefined, undefined);
  expect(again).toBe(first);
  expect(metadata(first!).getFieldset().email.key).toBeUndefined();
});

test("a refusal, then no answer (accepted and redirected): the form starts afresh, errors gone, fields remounted", () => {
  const [before, refused, after, later] = run(undefined, refusal, undefined, undefined);
  const shown = metadata(refused!, refusal);
  expect(shown.valid).toBe(false);
  expect(shown.getFieldset().email.errors).toEqual(["errors.emailInvalid"]);
  // With JS the controls keep what was typed: same keys, same starting values.
  expect(shown.getFieldset().email.key).toBe(metadata(before!).getFieldset().email.key);
  expect(shown.getFieldset().email.initialValue).toBe("marie@example.fr");
  // The answer's values are the fields' values.
  expect(shown.getFieldset().email.value).toBe("marie@");
  const fresh = metadata(after!, undefined);
  expect(fresh.valid).toBe(true);
  expect(fresh.errors).toBeUndefined();
  expect(fresh.getFieldset().email.errors).toBeUndefined();
  expect(fresh.getFieldset().email.key).not.toBe(shown.getFieldset().email.key);
  expect(fresh.getFieldset().email.initialValue).toBe("marie@example.fr");
  expect(later).toBe(after);
});

test("a success that stays on the page (`resetForm`) starts the form afresh once; the page's load with one does not", () => {
  const success = { initialValue: null };
  const [, refused, reset, again] = run(undefined, refusal, success, success);
  expect(reset!.fresh).toBe(refused!.fresh + 1);
  expect(again).toBe(reset);
  expect(metadata(reset!, success).valid).toBe(true);
  const [loaded] = run(success);
  expect(loaded!.fresh).toBe(0);
  // Then a second success, another answer: afresh again.
  expect(run(undefined, success, { initialValue: null }).at(-1)!.fresh).toBe(2);
});

test("the page's load with a refusal (JavaScript off): the controls start from what was sent", () => {
  const [loaded] = run(refusal);
  const fields = metadata(loaded!, refusal).getFieldset();
  expect(fields.email.initialValue).toBe("marie@");
  expect(fields.payment_methods.getFieldList().map((item) => item.getFieldset().amount.initialValue)).toEqual([
    "x",
    undefined,
  ]);
});

test("defaults read as conform reads them: booleans on or nothing, numbers as text, empty text nothing", () => {
  const fields = metadata(run(undefined)[0]!).getFieldset();
  expect([
    fields.terms.initialValue,
    fields.count.initialValue,
    fields.home.getFieldset().zipcode.initialValue,
  ]).toEqual(["on", "3", undefined]);
});

test("with JavaScript a field's value follows what is typed, until the next answer", () => {
  const [, refused] = run(undefined, refusal);
  const data = new FormData();
  data.set("email", "marie@exemple.fr");
  data.set("home.zipcode", "");
  const typed = { ...refused!, typed: { under: refusal, data } };
  const fields = metadata(typed, refusal).getFieldset();
  expect(fields.email.value).toBe("marie@exemple.fr");
  expect(fields.home.getFieldset().zipcode.value).toBeUndefined();
  // Typed under an earlier answer: the new answer's values.
  expect(metadata(typed, { ...refusal }).getFieldset().email.value).toBe("marie@");
});

test("only a form that reads a field's value follows typing (re-renders on input)", () => {
  let reads = 0;
  const form = formMetadata<Details, string[]>(run(undefined)[0]!, undefined, () => reads++);
  const fields = form.getFieldset();
  void [form.id, form.errors, form.valid, form.allErrors, fields.email.id, fields.email.initialValue];
  void getFormProps(form);
  expect(reads).toBe(0);
  void fields.email.value;
  expect(reads).toBe(1);
});
