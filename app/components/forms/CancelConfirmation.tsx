import { Form, Link } from "react-router";
import { useTranslation } from "~/i18n";
import { Panel } from "~/components/Panel";
import { INTENT_FIELD, intents } from "~/routes/+shared/intents";

/**
 * The confirmation before cancelling something sent (a refund request, spec 001 §2.6 "Cancel button with
 * confirmation modal"; an allowance, issue 15 item 1): a side panel over its list saying what is
 * cancelled and what follows, with the one button that cancels and the way back. Its server half is
 * cancel-confirmation.server.ts.
 */

/** The confirmation's one button (decision 0021). */
export const CANCEL_INTENT = intents("cancel");

/** The catalogue keys of one feature's confirmation: the panel's words and the messages of the outcome. */
export interface CancelWords {
  title: string;
  consequence: string;
  confirm: string;
  back: string;
  notFound: string;
  notCancellable: string;
  done: string;
}

export function CancelConfirmation({
  id,
  words,
  intro,
  closeTo,
}: {
  id: string;
  words: CancelWords;
  /** What is cancelled, in the feature's words. */
  intro: string;
  /** The list the panel is over. */
  closeTo: string;
}) {
  const { t } = useTranslation();
  return (
    <Panel id={id} title={t(words.title)} closeTo={closeTo}>
      <p>{intro}</p>
      <p className="hint">{t(words.consequence)}</p>
      <Form method="post" className="actions" preventScrollReset>
        <button type="submit" name={INTENT_FIELD} value={CANCEL_INTENT.cancel} className="button button--danger">
          {t(words.confirm)}
        </button>
        <Link to={closeTo} className="link-action" preventScrollReset>
          {t(words.back)}
        </Link>
      </Form>
    </Panel>
  );
}
