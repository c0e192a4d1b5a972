import { useEffect, useRef } from "react";
import { Form, href, useLocation, useNavigate } from "react-router";
import { useTranslation } from "~/i18n";
import { useHydrated } from "./useHydrated";
import { Icon } from "./Icon";

interface Wallet {
  id: string;
  name: string;
}

/** sortablejs animates the rows it moves: not when the person asked for reduced motion (WCAG 2.3.3). */
export function dragAnimationMs(win: Pick<Window, "matchMedia">): number {
  return win.matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : 150;
}

/**
 * The card's wallets in paying order. Each row's "Monter" / "Descendre" buttons belong to one GET form
 * (the order shown travels in `order`, the step in `move`), so they work without JavaScript. With JS,
 * sortablejs adds drag-and-drop: a drop becomes the same kind of URL, and React draws the new order.
 */
export function SortableWallets({ cardId, wallets }: { cardId: string; wallets: Wallet[] }) {
  const { t } = useTranslation();
  const list = useRef<HTMLOListElement>(null);
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const { search } = useLocation();
  const order = wallets.map((w) => w.id).join(",");

  useEffect(() => {
    const element = list.current;
    if (!element) return;
    let sortable: { destroy(): void } | undefined;
    let cancelled = false;
    void import("sortablejs").then(({ default: Sortable }) => {
      if (cancelled) return;
      sortable = Sortable.create(element, {
        handle: ".sortable__handle",
        animation: dragAnimationMs(window),
        onEnd(event) {
          const { oldIndex, newIndex, item, from } = event;
          if (oldIndex === undefined || newIndex === undefined || oldIndex === newIndex) return;
          // Put the node back where React left it: React, not sortablejs, draws the new order.
          from.insertBefore(item, from.children[oldIndex > newIndex ? oldIndex + 1 : oldIndex] ?? null);
          const ids = order.split(",");
          const [moved] = ids.splice(oldIndex, 1);
          ids.splice(newIndex, 0, moved!);
          void navigate(`${href("/cards/:cardId/priority", { cardId })}?order=${ids.join(",")}`, {
            replace: true,
            preventScrollReset: true,
          });
        },
      });
    });
    return () => {
      cancelled = true;
      sortable?.destroy();
    };
  }, [cardId, order, navigate]);

  // After a move, focus stays on the wallet that moved (its button may now be at another place).
  useEffect(() => {
    const move = new URLSearchParams(search).get("move");
    if (!move) return;
    const [direction, walletId] = move.split(":");
    const same = document.getElementById(`move-${direction}-${walletId}`) as HTMLButtonElement | null;
    const other = document.getElementById(
      `move-${direction === "up" ? "down" : "up"}-${walletId}`,
    ) as HTMLButtonElement | null;
    (same && !same.disabled ? same : other)?.focus();
  }, [search]);

  return (
    <Form method="get" preventScrollReset replace>
      <input type="hidden" name="order" value={order} />
      {hydrated ? <p className="hint">{t("cards.priority.dragHint")}</p> : null}
      <ol className="sortable" ref={list} aria-label={t("cards.priority.listLabel")}>
        {wallets.map((wallet, index) => (
          <li key={wallet.id} className="sortable__item">
            {hydrated ? (
              <span className="sortable__handle" aria-hidden="true">
                <Icon name="arrows-up-down" />
              </span>
            ) : null}
            <span className="sortable__position">{t("cards.priority.position", { position: index + 1 })}</span>
            <span className="sortable__name">{wallet.name}</span>
            <span className="sortable__buttons">
              <button
                type="submit"
                name="move"
                value={`up:${wallet.id}`}
                id={`move-up-${wallet.id}`}
                className="button button--secondary button--small"
                disabled={index === 0}
              >
                {t("cards.priority.up")}
                <span className="visually-hidden"> {wallet.name}</span>
              </button>
              <button
                type="submit"
                name="move"
                value={`down:${wallet.id}`}
                id={`move-down-${wallet.id}`}
                className="button button--secondary button--small"
                disabled={index === wallets.length - 1}
              >
                {t("cards.priority.down")}
                <span className="visually-hidden"> {wallet.name}</span>
              </button>
            </span>
          </li>
        ))}
      </ol>
    </Form>
  );
}
