import { Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/index";
import { PageHeader } from "~/components/PageHeader";
import { CreateWalletForms } from "~/components/WalletParts";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { badRequest, redirectWithFlash } from "~/routes/+shared/request.server";
import { availableWalletLicences, createWalletFromLicence, listWallets } from "~/.server/services/wallets";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";

/**
 * /wallets (spec 000 §2 "Wallets page"): the first wallet, or — with none — an empty state with a
 * refresh link and, when a wallet_activation licence is available, the way to create one. The
 * create-wallet form of every wallet page posts here.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const userId = context.get(accountContext).id;
  const { db } = await getPlatform();
  const [wallets, licences] = await Promise.all([listWallets(db, userId), availableWalletLicences(db, userId)]);
  if (wallets[0]) throw internalRedirect(internalPath("/wallets/:walletId", { walletId: wallets[0].id }));
  return { licences };
}

export async function action({ request, context }: Route.ActionArgs) {
  const userId = context.get(accountContext).id;
  const { db } = await getPlatform();
  const form = await request.formData();
  const walletId = await createWalletFromLicence(db, userId, String(form.get("licence") ?? ""));
  if (walletId) return redirectWithFlash(request, internalPath("/wallets/:walletId", { walletId }), { kind: "success", message: "wallets.create.done" });
  // Refused (a licence used meanwhile, another's, or made up): said where the form was. The empty
  // state shows it itself; a wallet page is not this route, so the message goes back to it as a flash.
  const wallets = await listWallets(db, userId);
  const from = wallets.find((w) => w.id === form.get("from")) ?? wallets[0];
  if (!from) return badRequest({ error: "wallets.create.refused" });
  return redirectWithFlash(request, internalPath("/wallets/:walletId", { walletId: from.id }), { kind: "error", message: "wallets.create.refused" });
}

export default function WalletsEmpty({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("wallets.title")} error={Boolean(actionData?.error)} />
      {actionData?.error ? (
        <div className="alert alert--error" role="alert">
          <p>{t(actionData.error)}</p>
        </div>
      ) : null}
      <section className="panel empty-state" aria-labelledby="wallets-empty-title">
        <h2 id="wallets-empty-title">{t("wallets.empty.title")}</h2>
        <p>{t("wallets.empty.text")}</p>
        <p>
          <Link to="/wallets" className="button button--secondary">
            {t("wallets.empty.refresh")}
          </Link>
        </p>
      </section>
      <CreateWalletForms licences={loaderData.licences} />
    </>
  );
}
