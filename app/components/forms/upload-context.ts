import { createContext, useContext } from "react";

/*
 * The upload under way in a form (UploadForm.tsx), apart from the code that sends it: every wizard's submit
 * button (IntentButton) reads it, so every page would otherwise carry the upload code (decision 0058).
 */

/** The upload under way in a form: the intent of the button that sent it, and the share sent. */
export interface Sending {
  intent: string | null;
  percent: number;
}

export const SendingContext = createContext<Sending | null>(null);

/** The upload under way in the form around this component, if any (its submit button then says so). */
export function useSending(): Sending | null {
  return useContext(SendingContext);
}
