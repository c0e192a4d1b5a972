import { useTranslation } from "~/i18n";
import type { Route } from "./+types/cancel";
import { CancelConfirmation, type CancelWords } from "~/components/forms/CancelConfirmation";
import { cancellableOrBack, confirmCancel } from "~/routes/+shared/cancel-confirmation.server";
import { formatDate } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { cancelAllowance, getAllowance } from "~/.server/services/allowances/requests";

const LIST = "/plans/allowances" as const;

const WORDS: CancelWords = {
  title: "allowanceList.cancellation.title",
  consequence: "allowanceList.cancellation.consequence",
  confirm: "allowanceList.cancellation.confirm",
  back: "allowanceList.cancellation.back",
  notFound: "allowanceList.cancellation.notFound",
  notCancellable: "allowanceList.cancellation.notCancellable",
  done: "allowanceList.cancellation.done",
};

/**
 * Cancelling an allowance after a confirmation step (issue 15 item 1: "Annuler" with confirmation while
 * it is cancellable): a side panel over the list (the shared CancelConfirmation). An unknown, foreign or
 * no longer cancellable allowance goes back to the list with a message, on the page as on the post.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const found = await cancellableOrBack(
    { request, list: LIST, words: WORDS },
    await getAllowance(db, account.id, params.allowanceId),
  );
  return {
    allowance: {
      type: found.type,
      groupName: found.groupName,
      startAt: found.startAt,
      endsAt: found.endsAt,
      amount: found.amount,
    },
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  return confirmCancel({ request, list: LIST, words: WORDS }, async () => {
    const { db, messenger, push } = await getPlatform();
    return cancelAllowance(db, account.id, params.allowanceId, { messenger, push });
  });
}

export default function CancelAllowancePanel({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { allowance } = loaderData;
  const intro = t("allowanceList.cancellation.intro", {
    type: t(`allowances.types.${allowance.type}`),
    group: allowance.groupName,
    amount: formatCents(allowance.amount),
    start: formatDate(allowance.startAt),
    end: formatDate(allowance.endsAt),
  });
  return <CancelConfirmation id="cancel-allowance" words={WORDS} intro={intro} closeTo={LIST} />;
}
