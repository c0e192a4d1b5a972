import { useEffect, useRef, type MouseEvent } from "react";
import { useActionData } from "react-router";
import { useTranslation } from "~/i18n";
import { errorOf, type FieldMeta } from "./meta";

export interface SummaryError {
  /**
   * The id the link moves to: a field, or a fieldset (a group of radios, or amounts checked together).
   * Never a disabled control: without JS the browser would move to it and focus nothing (issue 13, finding 8).
   */
  fieldId: string;
  /** A catalogue key. */
  message: string;
}

/** A field of the summary, with where its link goes when not the field's own id (a group's first option). */
export type SummaryField = FieldMeta | { field: FieldMeta; target: string };

/**
 * The summary's lines from the form's metadata (`useForm`): the form's own errors first (linked to `formTarget`, by
 * default the first field), then each field's first error, in the order of the page.
 */
export function summaryErrors(
  form: { errors?: string[] } | undefined,
  fields: readonly SummaryField[],
  formTarget?: string,
): SummaryError[] {
  const entries = fields.map((f) => ("target" in f ? f : { field: f, target: f.id }));
  const formFieldId = formTarget ?? entries[0]?.target;
  const formErrors = formFieldId ? (form?.errors ?? []).map((message) => ({ fieldId: formFieldId, message })) : [];
  const fieldErrors = entries.flatMap(({ field, target }) => {
    const message = errorOf(field);
    return message ? [{ fieldId: target, message }] : [];
  });
  return [...formErrors, ...fieldErrors];
}

const CONTROLS = "input:not([type=hidden]):not(:disabled), select:not(:disabled), textarea:not(:disabled)";

/**
 * What a summary link focuses with JS: the control itself, or for a fieldset (or a disabled control)
 * the first enabled control of its group, the legend scrolled into view — as GOV.UK's summary does.
 */
function focusTarget(target: HTMLElement): { focus: HTMLElement; reveal: HTMLElement } | null {
  const group =
    target instanceof HTMLFieldSetElement ? target : target.matches(":disabled") ? target.closest("fieldset") : null;
  if (!group)
    return {
      focus: target,
      reveal: target.closest(".field") instanceof HTMLElement ? (target.closest(".field") as HTMLElement) : target,
    };
  const first = group.querySelector<HTMLElement>(CONTROLS);
  if (!first) return null;
  return { focus: first, reveal: group.querySelector("legend") ?? group };
}

type ErrorSummaryProps =
  | { form: { errors?: string[] } | undefined; fields: readonly SummaryField[]; formTarget?: string; errors?: never }
  /** Lines made by hand: only for a form not yet on `useForm`'s metadata (decision 0021). */
  | { errors: SummaryError[]; form?: never; fields?: never; formTarget?: never };

/**
 * GOV.UK-style summary at the top of <main>: one link per faulty field, built from the form's errors;
 * focused when JS runs (on load and after each refused submission). As in GOV.UK Frontend ≥ 4.4 the
 * alert role is on an inner element, not on the focused container that holds `aria-labelledby`.
 */
export function ErrorSummary(props: ErrorSummaryProps) {
  const { t } = useTranslation();
  const errors = props.errors ?? summaryErrors(props.form, props.fields, props.formTarget);
  const ref = useRef<HTMLDivElement>(null);
  // Each answer of the action focuses the summary again, even with the same errors.
  const answer = useActionData();
  const signature = errors.map((e) => `${e.fieldId}:${e.message}`).join("|");
  useEffect(() => {
    if (signature) ref.current?.focus();
  }, [signature, answer]);
  if (errors.length === 0) return null;
  // With JS, following the link in place: a hash change would be a navigation for the router, which
  // forgets the action's answer (the summary and the inline errors would vanish, focus on <body>).
  const follow = (event: MouseEvent<HTMLAnchorElement>, id: string) => {
    const target = document.getElementById(id);
    const found = target ? focusTarget(target) : null;
    if (!found) return;
    event.preventDefault();
    found.reveal.scrollIntoView({ block: "start" });
    found.focus.focus({ preventScroll: true });
  };
  return (
    <div className="error-summary" aria-labelledby="error-summary-title" tabIndex={-1} ref={ref}>
      <div role="alert">
        <h2 id="error-summary-title" className="error-summary__title">
          {t("errors.summaryTitle")}
        </h2>
        <ul>
          {errors.map((e) => (
            <li key={e.fieldId + e.message}>
              <a href={`#${e.fieldId}`} onClick={(event) => follow(event, e.fieldId)}>
                {t(e.message)}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
