/** Moved to the form components (decision 0021); kept for the pages not yet migrated. */
export { ErrorSummary, type SummaryError } from "./forms/ErrorSummary";
