import { useEffect, useRef, type RefObject } from "react";
import { useLocation } from "react-router";

/**
 * What the person typed in a panel's forms and has not sent yet, kept while the panel is open (RGAA 7.1,
 * WCAG 3.3.7): a wizard's steps are pages of one panel, so Escape or « Fermer » on a draft opens the close
 * confirmation in place of the step, and « Reprendre » (or Escape again) shows the step again from the
 * server's answers. The values typed meanwhile are put back into the same form's untouched fields. They
 * live in memory only, for the panel's life (nothing is kept in the browser, decision 0026); a form's
 * values are forgotten once it is sent, since the server's answer then says what was sent.
 */

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
/** A field's typed state: its value, or for a radio or checkbox whether that value is checked. */
type Typed = { name: string; value: string; checked?: boolean };

const SKIPPED_TYPES = new Set(["hidden", "file", "submit", "button", "reset", "image", "password"]);

function isKeptField(target: EventTarget | null): target is Field {
  if (target instanceof HTMLInputElement) return !SKIPPED_TYPES.has(target.type) && target.name !== "";
  return (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) && target.name !== "";
}

/** A form is known by its id (conform gives one to every form) or else by the URL it posts to. */
const formKey = (form: HTMLFormElement) => form.id || form.getAttribute("action") || "";

/** True when the field still shows what the page was rendered with. */
function untouched(field: Field): boolean {
  if (field instanceof HTMLSelectElement) return [...field.options].every((o) => o.selected === o.defaultSelected);
  if (field instanceof HTMLInputElement && (field.type === "radio" || field.type === "checkbox"))
    return field.checked === field.defaultChecked;
  return field.value === field.defaultValue;
}

/** The fields of a form the person changed, as they are now. */
function typedIn(form: HTMLFormElement): Typed[] {
  return [...form.elements].filter(isKeptField).flatMap((field): Typed[] => {
    if (untouched(field)) return [];
    if (field instanceof HTMLInputElement && (field.type === "radio" || field.type === "checkbox"))
      return [{ name: field.name, value: field.value, checked: field.checked }];
    return [{ name: field.name, value: field.value }];
  });
}

/** Puts typed values back into the form's fields that are still as rendered; tells the form's scripts (conform). */
function restore(form: HTMLFormElement, typed: Typed[]) {
  for (const { name, value, checked } of typed) {
    const field = [...form.elements]
      .filter(isKeptField)
      .find((f) => f.name === name && (checked === undefined || f.value === value));
    if (!field || !untouched(field)) continue;
    if (checked !== undefined && field instanceof HTMLInputElement) field.checked = checked;
    else field.value = value;
    field.dispatchEvent(new Event("input", { bubbles: true }));
    field.dispatchEvent(new Event("change", { bubbles: true }));
  }
}

export function useTypedValuesKept(ref: RefObject<HTMLElement | null>) {
  const kept = useRef(new Map<string, Typed[]>());
  const location = useLocation();

  useEffect(() => {
    const panel = ref.current;
    if (!panel) return;
    const remember = (event: Event) => {
      if (!isKeptField(event.target) || !event.target.form) return;
      const form = event.target.form;
      kept.current.set(formKey(form), typedIn(form));
    };
    const forget = (event: Event) => {
      if (event.target instanceof HTMLFormElement) kept.current.delete(formKey(event.target));
    };
    panel.addEventListener("input", remember);
    panel.addEventListener("change", remember);
    panel.addEventListener("submit", forget);
    return () => {
      panel.removeEventListener("input", remember);
      panel.removeEventListener("change", remember);
      panel.removeEventListener("submit", forget);
    };
  }, [ref]);

  // Each time the panel shows another page of its route, the forms it had seen get their typed values back.
  useEffect(() => {
    const panel = ref.current;
    if (!panel) return;
    for (const form of panel.querySelectorAll("form")) {
      const typed = kept.current.get(formKey(form));
      if (typed?.length) restore(form, typed);
    }
  }, [ref, location.key]);
}
