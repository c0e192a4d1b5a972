import { useTranslation } from "~/i18n";
import type { Route } from "./+types/cancel";
import { CancelConfirmation, type CancelWords } from "~/components/forms/CancelConfirmation";
import { cancellableOrBack, confirmCancel } from "~/routes/+shared/cancel-confirmation.server";
import { formatDate } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import { getLocale } from "~/i18n/i18next.server";
import { accountContext } from "~/routes/+shared/auth.server";
import { internalPath } from "~/routes/+shared/redirects.server";
import { getPlatform } from "~/.server/platform";
import { cancelRefund, getRefund } from "~/.server/services/refunds/requests";

const LIST = "/plans/expense-requests" as const;

const WORDS: CancelWords = {
  title: "refunds.cancel.title",
  consequence: "refunds.cancel.consequence",
  confirm: "refunds.cancel.confirm",
  back: "refunds.cancel.back",
  notFound: "refunds.cancel.notFound",
  notCancellable: "refunds.cancel.notCancellable",
  done: "refunds.cancel.done",
};

/**
 * Cancelling a request after a confirmation step (spec 001 §2.6 "Cancel button with confirmation modal"):
 * a side panel over the list (the shared CancelConfirmation). An unknown, foreign or no longer cancellable
 * request goes back to the list with a message; the POST releases what the request held on the wallets
 * and shows the finished requests.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const found = await cancellableOrBack(
    { request, list: LIST, words: WORDS },
    await getRefund(db, account.id, params.requestId, getLocale(context)),
  );
  return {
    request: { id: found.id, partnerName: found.partnerName, ticketDate: found.ticketDate, amount: found.amount },
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  const done = internalPath(LIST, {}, { search: { tab: "finished" } });
  return confirmCancel({ request, list: LIST, words: WORDS, done }, async () => {
    const { db, messenger, push } = await getPlatform();
    return cancelRefund(db, messenger, account.id, params.requestId, { push });
  });
}

export default function CancelRefundPanel({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { request } = loaderData;
  const intro = t("refunds.cancel.intro", {
    amount: formatCents(request.amount),
    partner: request.partnerName ?? t("refunds.list.partnerUnknown"),
    date: formatDate(request.ticketDate),
  });
  return <CancelConfirmation id="cancel-expense-request" words={WORDS} intro={intro} closeTo={LIST} />;
}
