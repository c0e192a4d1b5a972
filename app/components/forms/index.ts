/**
 * The form components (decision 0021): each takes a field's metadata (`fields.x` from `useForm`, which reads
 * conform's answer: decision 0077), so ids, `aria-describedby`, `aria-invalid` and the error summary's links come
 * from the form contract.
 */
export {
  RequiredNote,
  Field,
  TextArea,
  Select,
  InlineError,
  type FieldProps,
  type SelectProps,
  type TextAreaProps,
} from "./Field";
export {
  Radios,
  Checkbox,
  TermsField,
  choiceTarget,
  optionIdOf,
  type ChoiceOption,
  type ChoicesProps,
} from "./Choices";
export { NewSecretPair, OneTimeCodeField } from "./Secrets";
export { PhoneField } from "./PhoneField";
export { ChooseNewPassword } from "./ChooseNewPassword";
export { ErrorSummary, summaryErrors, type SummaryError, type SummaryField } from "./ErrorSummary";
export { useReplyKey, type FieldMeta } from "./meta";
export { useForm } from "./useForm";
export { IntentButton, FileField } from "./WizardParts";
export { FormAlert } from "./FormAlert";
export { UploadForm } from "./UploadForm";
export { DateField } from "./DateField";
export { SummaryRow, summaryRowFields } from "./SummaryRow";
export { PayoutIbanField } from "./PayoutIbanField";
