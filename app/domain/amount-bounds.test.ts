import { expect, test } from "vitest";
import {
  DECLARED_DISTANCE_MAX_METERS,
  REFUND_MAX_AMOUNT,
  SUBSCRIPTION_MAX_PER_MONTH,
  subscriptionMaxAmount,
} from "./amount-bounds";
import { formatCents } from "./money";
import { refundDetailsSchema } from "./refund-schemas";
import resources from "~/i18n/catalogues";
import { translatorFor } from "~/i18n";
import { parseForm } from "~/routes/+shared/forms.server";

/** Decision 0049: the bounds of the amounts a person types, and the French words that state them. */
const TODAY = "2026-11-24";

function refundAmount(amount: string) {
  const form = new FormData();
  form.append("partner_id", "prt_1");
  form.append("ticket_date", "14/11/2026");
  form.append("amount", amount);
  const submission = parseForm(form, refundDetailsSchema(TODAY));
  return submission.status === "success" ? submission.value.amount : submission.error?.amount;
}

test("a refund's amount: up to 5 000 € (just below, at, just above), then the probe's figure", () => {
  expect(REFUND_MAX_AMOUNT).toBe(500_000);
  expect(refundAmount("4 999,99")).toBe(499_999);
  expect(refundAmount("5000")).toBe(500_000);
  expect(refundAmount("5 000,01")).toEqual(["refunds.errors.amountTooBig"]);
  expect(refundAmount("999999,99")).toEqual(["refunds.errors.amountTooBig"]);
  // The other refusals are unchanged.
  expect(refundAmount("0")).toEqual(["refunds.errors.amountPositive"]);
  expect(refundAmount("12,345")).toEqual(["refunds.errors.amountInvalid"]);
});

test("a subscription's bound follows its months, never beyond the 12 of a calendar year", () => {
  expect(subscriptionMaxAmount(1)).toBe(100_000);
  expect(subscriptionMaxAmount(3)).toBe(300_000);
  expect(subscriptionMaxAmount(12)).toBe(1_200_000);
  expect(subscriptionMaxAmount(13)).toBe(1_200_000);
  expect(subscriptionMaxAmount(null)).toBe(1_200_000);
});

/** Spaces as the page shows them (formatCents writes no-break spaces). */
const spaced = (text: string) => text.replace(/\s/g, " ");

test("the French messages and hints say the same figures as the constants", () => {
  const t = translatorFor(resources.fr.translation);
  expect(spaced(t("refunds.errors.amountTooBig"))).toContain(spaced(formatCents(REFUND_MAX_AMOUNT)));
  expect(spaced(t("allowances.errors.subscriptionAmountTooBig"))).toContain(
    `${spaced(formatCents(SUBSCRIPTION_MAX_PER_MONTH))} par mois`,
  );
  for (const [type, meters] of Object.entries(DECLARED_DISTANCE_MAX_METERS))
    expect(spaced(t(`allowances.errors.distanceTooLong.${type}`))).toContain(` ${meters / 1000} km.`);
  // The hints are filled from the constants by the components.
  expect(spaced(t("refundWizard.details.amountHint", { max: formatCents(REFUND_MAX_AMOUNT) }))).toBe(
    "En euros, par exemple 12,50, jusqu’à 5 000,00 €",
  );
  expect(spaced(t("subscriptionWizard.details.amountHint", { max: formatCents(SUBSCRIPTION_MAX_PER_MONTH) }))).toBe(
    "Par exemple 86,40. Jusqu’à 1 000,00 € par mois de la période.",
  );
  expect(
    spaced(t("allowanceWizard.summary.correctHint", { max: DECLARED_DISTANCE_MAX_METERS.bicycle / 1000 })),
  ).toContain("jusqu’à 50 km.");
});
