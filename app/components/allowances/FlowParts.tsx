import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation } from "~/i18n";
import { IntentButton } from "~/components/forms";

/**
 * What the two allowance flows' steps (DistanceSteps.tsx, SubscriptionSteps.tsx) show alike: the steps'
 * frame with its heading, the details' IBAN field, Back (or Cancel on the first step) and Continue. Each flow names its own words
 * (`allowanceWizard.*` for carpooling and bicycle, `subscriptionWizard.*`).
 */

/** The catalogue section of a flow's words. */
export type FlowWords = "allowanceWizard" | "subscriptionWizard";

/** What a flow's view says of its steps (DistanceView, SubscriptionView). */
interface FlowView<Step extends string> {
  step: Step;
  back: string | null;
  closeTo: string;
}

/** The answer of a refused step, for the form of that step only (an answer for another step, an old tab's, is not). */
export type StepReply = SubmissionResult<string[]> | undefined;

/** The steps' frame: the step's heading ("Étape 2 sur 3 : …") above the step. */
export function FlowSteps<Step extends string>({
  wizard,
  steps,
  words,
  part,
  headingId,
  formState,
  children,
}: {
  wizard: FlowView<Step>;
  steps: readonly Step[];
  words: FlowWords;
  /** The flow's file, named in the page for its script to ask for before hydration (decision 0080). */
  part: "distance" | "subscription";
  headingId: string;
  /** What the step's forms start from: conform keeps a form's first defaults, new ones start it again. */
  formState: unknown;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="refund-wizard" key={JSON.stringify(formState)} data-wizard-part={part}>
      <h3 className="card-wizard__step" id={headingId}>
        {t(`${words}.stepOf`, {
          current: steps.indexOf(wizard.step) + 1,
          total: steps.length,
          title: t(`${words}.steps.${wizard.step}`),
        })}
      </h3>
      {children}
    </div>
  );
}

/** Back (or, on the first step, Cancel: the close link). */
export function BackOrCancel({ wizard, words }: { wizard: FlowView<string>; words: FlowWords }) {
  const { t } = useTranslation();
  return wizard.back ? (
    <Link to={wizard.back} className="link-action" preventScrollReset>
      {t(`${words}.back`)}
    </Link>
  ) : (
    <Link to={wizard.closeTo} className="link-action" preventScrollReset>
      {t(`${words}.cancel`)}
    </Link>
  );
}

/** Continue (the flow's `continue` intent), and Back or Cancel. */
export function ContinueActions({
  wizard,
  words,
  intent,
  submit,
}: {
  wizard: FlowView<string>;
  words: FlowWords;
  intent: string;
  submit?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="actions">
      <IntentButton value={intent}>{submit ?? t(`${words}.continue`)}</IntentButton>
      <BackOrCancel wizard={wizard} words={words} />
    </div>
  );
}
