import type { AllowanceProblem } from "~/.server/services/allowances/requests";
import { IBAN_WORDS, type ProblemWords } from "~/routes/+shared/problems.server";

/**
 * The allowance forms' words for the platform's refusals (decision 0051): each code of the allowance
 * services a catalogue key, in one table for both flows (a code without words fails the typecheck). The
 * IBAN's are the refund forms' (`IBAN_WORDS`), the addresses' the delivery address's (`errors.*`).
 */
export const ALLOWANCE_WORDS: ProblemWords<AllowanceProblem> = {
  startRequired: "allowances.errors.startRequired",
  endRequired: "allowances.errors.endRequired",
  startDateInvalid: "allowances.errors.startDateInvalid",
  endAfterToday: "allowances.errors.endAfterToday",
  endDateLastDayOfYearInvalid: "allowances.errors.endDateLastDayOfYearInvalid",
  endBeforeStart: "allowances.errors.endBeforeStart",
  periodTooLong: "allowances.errors.periodTooLong",
  noWorkingDay: "allowances.errors.noWorkingDay",
  daysAtOfficeRange: "allowances.errors.daysAtOfficeRange",
  distanceConfirmationRequired: "allowances.errors.distanceConfirmationRequired",
  distanceReasonRequired: "allowances.errors.distanceReasonRequired",
  distanceReasonTooLong: "allowances.errors.distanceReasonTooLong",
  line1Required: "errors.line1Required",
  line1Numeric: "errors.line1Numeric",
  addStreetNumber: "errors.addStreetNumber",
  maxLength50: "errors.maxLength50",
  zipcodeRequired: "errors.zipcodeRequired",
  zipcodeInvalid: "errors.zipcodeInvalid",
  cityRequired: "errors.cityRequired",
  cityNumeric: "errors.cityNumeric",
  countryRequired: "errors.countryRequired",
  countryInvalid: "errors.countryInvalid",
  ...IBAN_WORDS,
  typeNotAllowed: "allowances.errors.typeNotAllowed",
  groupNotAllowed: "allowances.errors.groupNotAllowed",
  amountInvalid: "allowances.errors.amountInvalid",
  subscriptionAmountTooBig: "allowances.errors.subscriptionAmountTooBig",
  mediaRequired: "allowances.errors.mediaRequired",
  secondMediaRequired: "allowances.errors.secondMediaRequired",
  travelRoleRequired: "allowances.errors.travelRoleRequired",
  distanceInvalid: "allowances.errors.distanceInvalid",
  distanceTooLongBicycle: "allowances.errors.distanceTooLong.bicycle",
  distanceTooLongCarpooling: "allowances.errors.distanceTooLong.carpooling",
  unknownPostcode: "allowances.errors.unknownPostcode",
  unsupportedCountry: "allowances.errors.unsupportedCountry",
  swornStatementRequired: "allowances.errors.swornStatementRequired",
  capReached: "allowances.errors.capReached",
  draftNotFound: "allowances.errors.draftNotFound",
};
