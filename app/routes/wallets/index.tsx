import { Link } from "react-router";
import { z } from "zod";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/index";
import { PageHeader } from "~/components/PageHeader";
import { CreateWalletForms } from "~/components/WalletParts";
import { accountContext } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { availableWalletLicences, createWalletFromLicence, listWalletNames } from "~/.server/services/wallets";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";
import { failedTo } from "~/routes/+shared/load-failure.server";
import { LoadFailure } from "~/components/LoadFailure";
import { useForm } from "~/components/forms";

/**
 * /wallets (spec 000 §2 "Wallets page"): the first wallet, or — with none — an empty state with a
 * refresh link and, when a wallet_activation licence is available, the way to create one. The
 * create-wallet form of every wallet page posts here.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const userId = context.get(accountContext).id;
  const { db } = await getPlatform();
  // Only the first wallet's id is needed (to go there): the names' listing, not the amounts.
  const [wallets, licences] = await Promise.all([
    listWalletNames(db, userId).catch(failedTo("wallets.errors.fetchWalletsFailed")),
    availableWalletLicences(db, userId),
  ]);
  if (wallets[0]) throw internalRedirect(internalPath("/wallets/:walletId", { walletId: wallets[0].id }));
  return { licences };
}

/** The create-wallet form (components/WalletParts.tsx): the licence, and the wallet page it was sent from. */
const walletActivationSchema = z.object({
  licence: z.string().max(100).default(""),
  from: z.string().max(100).optional(),
});

export async function action({ request, context }: Route.ActionArgs) {
  const userId = context.get(accountContext).id;
  const { db } = await getPlatform();
  const submission = parseForm(await request.formData(), walletActivationSchema);
  if (submission.status !== "success") return refuse(submission, { formErrors: ["wallets.create.refused"] });
  const { licence, from: fromId } = submission.value;
  const created = await createWalletFromLicence(db, userId, licence);
  if (created.kind === "created")
    return redirectWithFlash(request, internalPath("/wallets/:walletId", { walletId: created.walletId }), {
      kind: "success",
      message: "wallets.create.done",
    });
  // Refused (a licence used meanwhile, another's, or made up): said where the form was. The empty
  // state shows it itself; a wallet page is not this route, so the message goes back to it as a flash.
  const wallets = await listWalletNames(db, userId);
  const from = wallets.find((w) => w.id === fromId) ?? wallets[0];
  if (!from) return refuse(submission, { formErrors: ["wallets.create.refused"] });
  return redirectWithFlash(request, internalPath("/wallets/:walletId", { walletId: from.id }), {
    kind: "error",
    message: "wallets.create.refused",
  });
}

/** The wallets that failed to load: said in the page's place, under the shell's navigation (spec 000 §8). */
export function ErrorBoundary() {
  const { t } = useTranslation();
  return <LoadFailure title={t("wallets.title")} />;
}

export default function WalletsEmpty({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form] = useForm({ id: "create-wallet", lastResult: actionData });
  const error = form.errors?.[0];
  return (
    <>
      <PageHeader title={t("wallets.title")} error={Boolean(error)} />
      {error ? (
        <div className="alert alert--error" role="alert">
          <p>{t(error)}</p>
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
