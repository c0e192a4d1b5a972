import { href } from "react-router";
import { AppLink } from "~/components/AppLink";
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
import { walletPage, WALLET_FROZEN_PAGE_SIZE, WALLET_TRANSACTIONS_PAGE_SIZE } from "~/.server/services/wallets";
import { clampLimit } from "~/domain/transactions";

/**
 * A wallet (spec 000 §2 "Wallets page"): the strip of all the user's wallets, this one's details and
 * its transactions. An unknown or foreign id goes to the first wallet (or the empty state) with a message.
 * `?limit=` and `?frozenLimit=` ("Voir plus") are whole pages, capped (clampLimit): whatever the URL says, a
 * list reads at most that many rows through its index.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const userId = context.get(accountContext).id;
  const { db, env } = await getPlatform();
  const url = new URL(request.url);
  const limit = clampLimit(url.searchParams.get("limit"), WALLET_TRANSACTIONS_PAGE_SIZE);
  const frozenLimit = clampLimit(url.searchParams.get("frozenLimit"), WALLET_FROZEN_PAGE_SIZE);
  const { firstWalletId, page } = await walletPage(db, userId, params.walletId, {
    processed: limit,
    frozen: frozenLimit,
  }).catch(failedTo("wallets.errors.fetchWalletFailed"));
  if (!page) {
    // Straight to where the user lands: a flash survives one redirect, not two.
    throw await redirectWithFlash(
      request,
      firstWalletId ? internalPath("/wallets/:walletId", { walletId: firstWalletId }) : "/wallets",
      { kind: "error", message: "wallets.notFound" },
    );
  }
  const { strip, wallet, transactions, licences, mealDay } = page;
  return {
    strip,
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
              {/* The wallet shown is this page's own: its link is current without matching the location. */}
              <AppLink
                to={href("/wallets/:walletId", { walletId: w.id })}
                className="wallet-strip__link"
                aria-current={w.id === wallet.id ? "page" : undefined}
                preventScrollReset
              >
                <span className="wallet-strip__name">{w.name}</span>
                <span className="wallet-strip__amount">
                  {w.available === null ? t("wallets.unlimited") : formatCents(w.available)}
                </span>
              </AppLink>
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
