import { useEffect, useState } from "react";
import { useLocation, useNavigation, type Location } from "react-router";
import { useTranslation } from "~/i18n";
import { DocumentTitle } from "./DocumentTitle";
import { PAGE_LOADER_DELAY_MS } from "./page-loader-timing";
import { Panel } from "./Panel";

/**
 * The loading skeletons of client navigations (spec 000 §2 "3 skeletons while loading" of the wallets
 * strip; spec 001 §2.6: the refund list's "3 loading skeletons", the type step's "three placeholders";
 * decision 0066). With JavaScript, a navigation toward one of these places draws the place's shape at
 * once where its content will come, built from the same elements and classes as the content so that
 * nothing moves when it arrives. The shapes are hidden from assistive technology; the page loader's one
 * polite region says what is loading (`skeletonWords`). Without JavaScript every page comes whole from
 * the server and there is nothing to draw.
 */
export type SkeletonKind = "wallets" | "refunds" | "refundItems" | "refundTypes";

const REFUNDS = "/plans/expense-requests";

/** Which skeleton a navigation from `from` to `to` shows, if any. */
export function skeletonOf(to: Pick<Location, "pathname" | "search">, from: Pick<Location, "pathname" | "search">) {
  const onWallets = (path: string) => path === "/wallets" || path.startsWith("/wallets/");
  // Entering the wallets: the strip is what loads (between wallets it is already there).
  if (onWallets(to.pathname)) return onWallets(from.pathname) ? null : "wallets";
  if (to.pathname === REFUNDS) {
    // From the list itself: another tab, whose items load (a closed panel or "Voir plus" keep theirs).
    if (from.pathname === REFUNDS)
      return refundTab(to.search) !== refundTab(from.search) ? ("refundItems" as const) : null;
    return from.pathname.startsWith(`${REFUNDS}/`) ? null : ("refunds" as const);
  }
  // A new request opened from the list: its first step, the type choice.
  const step = new URLSearchParams(to.search).get("step");
  if (to.pathname === `${REFUNDS}/new` && from.pathname === REFUNDS && (step === null || step === "type"))
    return "refundTypes" as const;
  return null;
}

const refundTab = (search: string) =>
  new URLSearchParams(search).get("tab") === "finished" ? "finished" : "in-progress";

/** The words the page loader's polite region says while a skeleton shows. */
export const skeletonWords: Record<SkeletonKind, string> = {
  wallets: "wallets.loading",
  refunds: "refunds.list.loading",
  refundItems: "refunds.list.loading",
  refundTypes: "refundWizard.loadingTypes",
};

/** The skeleton of the navigation under way (a plain navigation, not a submission), if any. */
export function usePendingSkeleton(): SkeletonKind | null {
  const navigation = useNavigation();
  const location = useLocation();
  if (navigation.state !== "loading" || navigation.formMethod) return null;
  return skeletonOf(navigation.location, location);
}

/**
 * The skeleton to draw now: the pending one, once the page loader's wait has passed, so that a navigation
 * answered at once never flashes a skeleton; it goes as soon as the content is there.
 */
export function useShownSkeleton(): SkeletonKind | null {
  const pending = usePendingSkeleton();
  const [shown, setShown] = useState<SkeletonKind | null>(null);
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => setShown(pending), PAGE_LOADER_DELAY_MS);
    return () => {
      clearTimeout(timer);
      setShown(null);
    };
  }, [pending]);
  return pending && shown === pending ? pending : null;
}

const THREE = [0, 1, 2] as const;

/** A bar the size of a line of text (a no-break space keeps the line's own height). */
function Line({ size = "medium" }: { size?: "short" | "medium" | "long" }) {
  return <span className={`skeleton__line skeleton__line--${size}`}>{"\u00a0"}</span>;
}

/** The wallet page's top while it loads: its title and the strip of three wallets. The document is named for the section. */
export function WalletsSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="skeleton" aria-hidden="true" data-skeleton="wallets">
      <DocumentTitle page={t("wallets.title")} />
      <div className="toolbar">
        <h1 className="toolbar__title">
          <Line />
        </h1>
      </div>
      <ul className="wallet-strip">
        {THREE.map((i) => (
          <li key={i}>
            <span className="wallet-strip__link skeleton__tile">
              <span className="wallet-strip__name">
                <Line />
              </span>
              <span className="wallet-strip__amount">
                <Line size="short" />
              </span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Three requests' shapes, where the list's items come. */
export function RefundItemsSkeleton() {
  return (
    <ol className="expense-requests skeleton" aria-hidden="true" data-skeleton="refund-items">
      {THREE.map((i) => (
        <li key={i} className="expense-request">
          <p className="expense-request__title">
            <Line />
          </p>
          <p>
            <Line size="short" />
          </p>
          <p>
            <Line size="long" />
          </p>
        </li>
      ))}
    </ol>
  );
}

/**
 * The refund list while it loads, entered from another page: the plans page's frame in its own words
 * (its title, the tabs this person has, the new-request tile, the list's tabs), then three requests' shapes.
 */
export function RefundListSkeleton({
  plans,
  to,
}: {
  plans: { id: string; path: string; label: string }[];
  to: string;
}) {
  const { t } = useTranslation();
  const tab = refundTab(to);
  return (
    <div className="plans skeleton" aria-hidden="true" data-skeleton="refunds">
      <DocumentTitle page={t("refunds.title")} />
      <div className="toolbar">
        <h1 className="toolbar__title">{t("plans.title")}</h1>
      </div>
      {plans.length > 0 ? (
        <ul className="tabs">
          {plans.map((plan) => (
            <li key={plan.id}>
              <span className="tabs__link" aria-current={plan.path === REFUNDS ? "page" : undefined}>
                {t(plan.label)}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <section className="panel refund-tile">
        <h2>{t("refunds.list.newRequest")}</h2>
        <p className="hint">{t("refunds.list.newRequestHint")}</p>
        <p>
          <span className="button">{t("refunds.list.newRequest")}</span>
        </p>
      </section>
      <section className="panel">
        <ul className="tabs">
          <li>
            <span className="tabs__link" aria-current={tab === "in-progress" ? "page" : undefined}>
              {t("refunds.list.inProgress")}
            </span>
          </li>
          <li>
            <span className="tabs__link" aria-current={tab === "finished" ? "page" : undefined}>
              {t("refunds.list.finished")}
            </span>
          </li>
        </ul>
        <RefundItemsSkeleton />
      </section>
    </div>
  );
}

/** The new request's panel while its first step loads: its title and three choices' shapes. */
export function RefundTypesSkeleton() {
  const { t } = useTranslation();
  return (
    <Panel id="refund-wizard" title={t("refundWizard.title")} closeTo={REFUNDS}>
      <div className="skeleton" aria-hidden="true" data-skeleton="refund-types">
        <p>
          <Line size="long" />
        </p>
        <p>
          <Line />
        </p>
        <ul className="skeleton__choices">
          {THREE.map((i) => (
            <li key={i} className="skeleton__choice">
              <span className="skeleton__radio" />
              <Line />
            </li>
          ))}
        </ul>
      </div>
    </Panel>
  );
}
