import { Form, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/cancel";
import { Panel } from "~/components/Panel";
import { formatDate } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import { getLocale } from "~/i18n/i18next.server";
import { accountContext } from "~/routes/+shared/auth.server";
import { intents } from "~/routes/+shared/intents";
import { intentOf } from "~/routes/+shared/intents.server";
import { internalPath } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { getPlatform } from "~/.server/platform";
import { cancelExpenseRequest, getExpenseRequest } from "~/.server/services/refunds/requests";

const INTENT = intents("cancel");
const LIST = "/plans/expense-requests" as const;

/**
 * Cancelling a request after a confirmation step (spec 001 §2.6 "Cancel button with confirmation modal"):
 * a side panel over the list. An unknown, foreign or no longer cancellable request goes back to the list
 * with a message; the POST releases what the request held on the wallets.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const found = await getExpenseRequest(db, account.id, params.requestId, getLocale(context));
  if (!found) throw await redirectWithFlash(request, LIST, { kind: "error", message: "refunds.cancel.notFound" });
  if (!found.isCancellable)
    throw await redirectWithFlash(request, LIST, { kind: "error", message: "refunds.cancel.notCancellable" });
  return {
    request: {
      id: found.id,
      partnerName: found.partnerName,
      ticketDate: found.ticketDate,
      amount: found.amount,
    },
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  // An unknown intent is a 400 in French, as on every route.
  switch (intentOf(await request.formData(), INTENT)) {
    case INTENT.cancel:
      break;
  }
  const { db, messenger, push } = await getPlatform();
  const result = await cancelExpenseRequest(db, messenger, account.id, params.requestId, { push });
  switch (result.kind) {
    case "cancelled":
      return redirectWithFlash(request, internalPath(LIST, {}, { search: { tab: "finished" } }), {
        kind: "success",
        message: "refunds.cancel.done",
      });
    case "notFound":
      return redirectWithFlash(request, LIST, { kind: "error", message: "refunds.cancel.notFound" });
    case "notCancellable":
      return redirectWithFlash(request, LIST, { kind: "error", message: "refunds.cancel.notCancellable" });
  }
}

export default function CancelExpenseRequestPanel({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { request } = loaderData;
  return (
    <Panel id="cancel-expense-request" title={t("refunds.cancel.title")} closeTo={LIST}>
      <p>
        {t("refunds.cancel.intro", {
          amount: formatCents(request.amount),
          partner: request.partnerName ?? t("refunds.list.partnerUnknown"),
          date: formatDate(request.ticketDate),
        })}
      </p>
      <p className="hint">{t("refunds.cancel.consequence")}</p>
      <Form method="post" className="actions" preventScrollReset>
        <button type="submit" name="intent" value={INTENT.cancel} className="button button--danger">
          {t("refunds.cancel.confirm")}
        </button>
        <Link to={LIST} className="link-action" preventScrollReset>
          {t("refunds.cancel.back")}
        </Link>
      </Form>
    </Panel>
  );
}
