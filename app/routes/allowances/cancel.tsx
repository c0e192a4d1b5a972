import { Form, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/cancel";
import { Panel } from "~/components/Panel";
import { formatDate } from "~/domain/dates";
import { formatCents } from "~/domain/money";
import { accountContext } from "~/routes/+shared/auth.server";
import { intents } from "~/routes/+shared/intents";
import { intentOf } from "~/routes/+shared/intents.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { getPlatform } from "~/.server/platform";
import { cancelAllowance, getAllowance } from "~/.server/services/allowances/requests";

const INTENT = intents("cancel");
const LIST = "/plans/allowances" as const;

/**
 * Cancelling an allowance after a confirmation step (issue 15 item 1: "Annuler" with confirmation while
 * it is cancellable): a side panel over the list. An unknown, foreign or no longer cancellable allowance
 * goes back to the list with a message, on the page as on the post.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const found = await getAllowance(db, account.id, params.allowanceId);
  if (!found)
    throw await redirectWithFlash(request, LIST, { kind: "error", message: "allowanceList.cancellation.notFound" });
  if (!found.isCancellable)
    throw await redirectWithFlash(request, LIST, {
      kind: "error",
      message: "allowanceList.cancellation.notCancellable",
    });
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
  // An unknown intent is a 400 in French, as on every route.
  switch (intentOf(await request.formData(), INTENT)) {
    case INTENT.cancel:
      break;
  }
  const { db, messenger, push } = await getPlatform();
  const result = await cancelAllowance(db, account.id, params.allowanceId, { messenger, push });
  switch (result.kind) {
    case "cancelled":
      return redirectWithFlash(request, LIST, { kind: "success", message: "allowanceList.cancellation.done" });
    case "notFound":
      return redirectWithFlash(request, LIST, { kind: "error", message: "allowanceList.cancellation.notFound" });
    case "notCancellable":
      return redirectWithFlash(request, LIST, { kind: "error", message: "allowanceList.cancellation.notCancellable" });
  }
}

export default function CancelAllowancePanel({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { allowance } = loaderData;
  return (
    <Panel id="cancel-allowance" title={t("allowanceList.cancellation.title")} closeTo={LIST}>
      <p>
        {t("allowanceList.cancellation.intro", {
          type: t(`allowances.types.${allowance.type}`),
          group: allowance.groupName,
          amount: formatCents(allowance.amount),
          start: formatDate(allowance.startAt),
          end: formatDate(allowance.endsAt),
        })}
      </p>
      <p className="hint">{t("allowanceList.cancellation.consequence")}</p>
      <Form method="post" className="actions" preventScrollReset>
        <button type="submit" name="intent" value={INTENT.cancel} className="button button--danger">
          {t("allowanceList.cancellation.confirm")}
        </button>
        <Link to={LIST} className="link-action" preventScrollReset>
          {t("allowanceList.cancellation.back")}
        </Link>
      </Form>
    </Panel>
  );
}
