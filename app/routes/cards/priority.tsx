import { getFormProps } from "~/components/forms/useForm";
import { data, Form, href, Link } from "react-router";
import { z } from "zod";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/priority";
import { Panel } from "~/components/Panel";
import { SortableWallets } from "~/components/SortableWallets";
import { accountContext } from "~/routes/+shared/auth.server";
import { requireActiveCard } from "~/routes/+shared/guards.server";
import { getPlatform } from "~/.server/platform";
import { internalPath } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import {
  isPermutation,
  MIN_WALLETS_FOR_PRIORITY,
  moveWallet,
  setWalletPriority,
} from "~/.server/services/wallet-priority";
import { useForm } from "~/components/forms";

/**
 * Debit priority (spec 000 §2 "Wallets priority panel"): the card's wallets in paying order. "Monter" /
 * "Descendre" are buttons of a GET form: the order being arranged lives in the URL (`?order=`), so
 * they work without JavaScript; "Enregistrer l'ordre" posts it. With JS, drag-and-drop as well.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const card = await requireActiveCard(request, context, params.cardId);
  const saved = card.linkedWallets.map((w) => w.id);
  const url = new URL(request.url);
  const param = url.searchParams.get("order");
  const move = url.searchParams.get("move");
  let order = saved;
  let invalid = false;
  if (param !== null) {
    const proposed = param.split(",").filter(Boolean);
    if (isPermutation(saved, proposed)) order = proposed;
    else invalid = true;
  }
  // "up:<walletId>" / "down:<walletId>": one step from the order shown.
  if (move && !invalid) {
    const [direction, walletId] = move.split(":");
    if ((direction === "up" || direction === "down") && walletId) order = moveWallet(order, walletId, direction);
  }
  const names = new Map(card.linkedWallets.map((w) => [w.id, w.name]));
  return data(
    {
      cardId: card.id,
      wallets: order.map((id) => ({ id, name: names.get(id)! })),
      changed: order.join(",") !== saved.join(","),
      invalid,
      tooFew: saved.length < MIN_WALLETS_FOR_PRIORITY,
    },
    { status: invalid ? 400 : 200 },
  );
}

/** The order posted: the card's wallet ids, first to pay first (checked against the card by the service). */
const prioritySchema = z.object({ wallet: z.array(z.string().max(100)).max(50).default([]) });

export async function action({ request, params, context }: Route.ActionArgs) {
  const card = await requireActiveCard(request, context, params.cardId);
  const submission = parseForm(await request.formData(), prioritySchema);
  if (submission.status !== "success") return refuse(submission, { formErrors: ["errors.priorityNotPermutation"] });
  const { db } = await getPlatform();
  const result = await setWalletPriority(db, context.get(accountContext).id, card.id, submission.value.wallet);
  if (result.kind === "notPermutation" || result.kind === "tooFew")
    return refuse(submission, { formErrors: ["errors.priorityNotPermutation"] });
  if (result.kind !== "ok")
    return redirectWithFlash(request, internalPath("/cards/:cardId", { cardId: card.id }), {
      kind: "error",
      message: "cards.priority.failed",
    });
  return redirectWithFlash(request, internalPath("/cards/:cardId", { cardId: card.id }), {
    kind: "success",
    message: "cards.priority.saved",
  });
}

export default function PriorityPanel({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { cardId, wallets, changed, invalid, tooFew } = loaderData;
  const card = href("/cards/:cardId", { cardId });
  const [form] = useForm({ id: "priority", lastResult: actionData });
  const error = form.errors?.[0];
  return (
    <Panel id="priority" title={t("cards.priority.title")} closeTo={card} error={invalid || Boolean(error)}>
      {tooFew ? (
        <div className="alert alert--warning" role="status">
          <p>{t("cards.priority.tooFew")}</p>
        </div>
      ) : (
        <>
          {invalid || error ? (
            <div className="alert alert--error" role="alert">
              <p>{t(error ?? "cards.priority.invalidOrder")}</p>
            </div>
          ) : null}
          <p>{t("cards.priority.intro")}</p>
          <SortableWallets cardId={cardId} wallets={wallets} />
          {changed ? (
            <p className="hint" role="status">
              {t("cards.priority.unsaved")}
            </p>
          ) : null}
          <Form method="post" {...getFormProps(form)} preventScrollReset>
            {wallets.map((w) => (
              <input key={w.id} type="hidden" name="wallet" value={w.id} />
            ))}
            <div className="actions">
              <button type="submit" className="button">
                {t("cards.priority.save")}
              </button>
              <Link to={card} className="link-action" preventScrollReset>
                {t("cards.priority.cancel")}
              </Link>
            </div>
          </Form>
        </>
      )}
    </Panel>
  );
}
