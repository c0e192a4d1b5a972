import { href, NavLink } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/wallet";
import { PageHeader } from "~/components/PageHeader";
import { CreateWalletForms, WalletDetails, WalletTransactions } from "~/components/WalletParts";
import { formatCents } from "~/domain/money";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { internalPath } from "~/routes/+shared/redirects.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { failedTo } from "~/routes/+shared/load-failure.server";
import { LoadFailure } from "~/components/LoadFailure";
import {
  availableWalletLicences,
  getWalletDetail,
  listWallets,
  listWalletTransactions,
  WALLET_FROZEN_PAGE_SIZE,
  WALLET_TRANSACTIONS_PAGE_SIZE,
} from "~/.server/services/wallets";
import { mealDayOfWallet } from "~/.server/services/authorisations";

/** How many items a "Voir plus" URL asks for: a whole number of pages, capped. */
function limitParam(value: string | null, pageSize: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < pageSize) return pageSize;
  return Math.min(Math.ceil(n / pageSize) * pageSize, pageSize * 20);
}

/**
 * A wallet (spec 000 §2 "Wallets page"): the strip of all the user's wallets, this one's details and
 * its transactions. An unknown or foreign id goes to the first wallet (or the empty state) with a message.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const userId = context.get(accountContext).id;
  const { db, env } = await getPlatform();
  const url = new URL(request.url);
  const limit = limitParam(url.searchParams.get("limit"), WALLET_TRANSACTIONS_PAGE_SIZE);
  const frozenLimit = limitParam(url.searchParams.get("frozenLimit"), WALLET_FROZEN_PAGE_SIZE);
  const [wallets, wallet, transactions, licences, mealDay] = await Promise.all([
    listWallets(db, userId).catch(failedTo("wallets.errors.fetchWalletsFailed")),
    getWalletDetail(db, userId, params.walletId).catch(failedTo("wallets.errors.fetchWalletFailed")),
    listWalletTransactions(db, userId, params.walletId, { processed: limit, frozen: frozenLimit }).catch(
      failedTo("wallets.errors.fetchWalletFailed"),
    ),
    availableWalletLicences(db, userId),
    // A meal wallet's 25 € a day and Sundays, by the engine's rules (null for other wallets).
    mealDayOfWallet(db, userId, params.walletId).catch(failedTo("wallets.errors.fetchWalletFailed")),
  ]);
  if (!wallet || !transactions) {
    // Straight to where the user lands: a flash survives one redirect, not two.
    throw await redirectWithFlash(
      request,
      wallets[0] ? internalPath("/wallets/:walletId", { walletId: wallets[0].id }) : "/wallets",
      { kind: "error", message: "wallets.notFound" },
    );
  }
  return {
    strip: wallets.map((w) => ({ id: w.id, name: w.name, available: w.available })),
    wallet,
    guideUrl: `${env.FAQ_URL}#ou-utiliser-${wallet.guide}`,
    transactions: {
      walletId: wallet.id,
      ...transactions,
      limit,
      frozenLimit,
      pageSize: WALLET_TRANSACTIONS_PAGE_SIZE,
      frozenPageSize: WALLET_FROZEN_PAGE_SIZE,
    },
    licences,
    mealDay,
  };
}

/** The wallet that failed to load: said in the page's place, under the shell's navigation (spec 000 §8). */
export function ErrorBoundary() {
  const { t } = useTranslation();
  return <LoadFailure title={t("wallets.title")} />;
}

export default function WalletPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { strip, wallet, guideUrl, transactions, licences, mealDay } = loaderData;
  return (
    <>
      <PageHeader title={wallet.name} />
      <nav aria-label={t("wallets.stripLabel")}>
        <ul className="wallet-strip">
          {strip.map((w) => (
            <li key={w.id}>
              <NavLink
                to={href("/wallets/:walletId", { walletId: w.id })}
                className="wallet-strip__link"
                preventScrollReset
              >
                <span className="wallet-strip__name">{w.name}</span>
                <span className="wallet-strip__amount">
                  {w.available === null ? t("wallets.unlimited") : formatCents(w.available)}
                </span>
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="wallet-page">
        <WalletDetails wallet={wallet} guideUrl={guideUrl} mealDay={mealDay} />
        <WalletTransactions data={transactions} />
      </div>
      <CreateWalletForms licences={licences} from={wallet.id} />
    </>
  );
}
