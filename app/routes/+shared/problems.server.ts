import { ibanMessage, type IbanProblem } from "~/domain/iban";
import type { Problem } from "~/domain/problems";
import type { CatalogueKey } from "~/i18n/words.server";
import type { Refusal } from "./forms.server";

/** A feature's words for its services' codes: every code a catalogue key (both checked by the typecheck). */
export type ProblemWords<Code extends string> = Record<Code, CatalogueKey>;

/**
 * The one typed translator from a service's problems to the form contract's refusal (decision 0051):
 * each code worded by the feature's table, at its field or, without one, at the form. The order of the
 * problems is kept, so the error summary lists them as the form shows its fields.
 */
export function refusalOf<Code extends string>(
  problems: readonly Problem<string, Code>[],
  words: ProblemWords<Code>,
): Required<Pick<Refusal, "fieldErrors" | "formErrors">> {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const { field, code } of problems) {
    const key = words[code];
    if (field === null) formErrors.push(key);
    else (fieldErrors[field] ??= []).push(key);
  }
  return { fieldErrors, formErrors };
}

/** The IBAN's words, shared by the refund and allowance forms (the catalogue's `refunds.errors.iban*`). */
export const IBAN_WORDS: ProblemWords<IbanProblem> = {
  ibanRequired: ibanMessage("ibanRequired"),
  ibanCountry: ibanMessage("ibanCountry"),
  ibanNotSepa: ibanMessage("ibanNotSepa"),
  ibanLength: ibanMessage("ibanLength"),
  ibanFormat: ibanMessage("ibanFormat"),
  ibanChecksum: ibanMessage("ibanChecksum"),
  ibanRibKey: ibanMessage("ibanRibKey"),
};
