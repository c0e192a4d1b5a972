import type { ReactNode } from "react";
import { href, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/site-map";
import { PublicPage } from "~/components/PublicShell";
import { LIGHT_VERSION_SETTING } from "~/components/LightVersion";
import { planFeaturesOf, planTabs } from "~/domain/plans";
import { SETTINGS_TABS } from "~/domain/settings-tabs";
import { getPlatform } from "~/.server/platform";
import { getAccount, isOnboarded } from "~/.server/services/accounts";
import { listCards } from "~/.server/services/cards";
import { listWalletNames } from "~/.server/services/wallets";
import { mustSetUpMfa } from "~/.server/services/security";
import { currentUserId } from "~/routes/+shared/auth.server";

/**
 * The site map (RGAA 12.1: a second way to reach every page besides the menus), public, linked from every
 * page's footer. Signed in, it lists what the signed-in menus offer this person, from the same sources they
 * use: the cards and wallets of the side navigation, the plans' tabs this account's features open
 * (`planTabs`), the settings' tabs (`SETTINGS_TABS`), the header's notifications and help, the user menu's
 * feedback (only when analytics is configured, as there), and the footer's legal pages. Someone not signed in,
 * or not yet let into the portal (onboarding, second factor to set up), sees the public pages only.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { db, env } = await getPlatform();
  const userId = await currentUserId(request);
  const account = userId ? await getAccount(db, userId) : null;
  if (!account || !(await isOnboarded(db, account)) || mustSetUpMfa(account)) return { signedIn: false as const };
  const [cards, wallets] = await Promise.all([listCards(db, account.id), listWalletNames(db, account.id)]);
  return {
    signedIn: true as const,
    cards,
    wallets,
    plans: planTabs(planFeaturesOf(account)).map(({ id, path, label }) => ({ id, path, label })),
    feedback: Boolean(env.ANALYTICS_KEY),
  };
}

type SignedInMap = Extract<Route.ComponentProps["loaderData"], { signedIn: true }>;

export default function SiteMap({ loaderData: data }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <PublicPage title={t("legal.siteMap.title")}>
      <div className="site-map">
        <p>{t(data.signedIn ? "legal.siteMap.intro" : "legal.siteMap.introSignedOut")}</p>
        <ul className="site-map__sections">
          {data.signedIn ? <SignedInSections data={data} /> : <PublicSections />}
          <Section title={t("legal.siteMap.sections.legal")}>
            <Entry to={href("/terms")} label={t("legal.terms.link")} />
            <Entry to={href("/privacy")} label={t("legal.privacy.link")} />
            <Entry to={href("/accessibilite")} label={t("legal.accessibility.title")} />
            <Entry to={href("/cookies")} label={t("footer.cookies")} />
          </Section>
        </ul>
      </div>
    </PublicPage>
  );
}

/** The menus' pages of a signed-in person, in the order of the side navigation, the header, then the user menu. */
function SignedInSections({ data }: { data: SignedInMap }) {
  const { t } = useTranslation();
  const cardLabel = (card: SignedInMap["cards"][number]) =>
    t(card.type === "virtual" ? "nav.virtualCard" : "nav.physicalCard", { lastFour: card.lastFour }) +
    (card.blocked ? ` ${t("nav.blockedSuffix")}` : "");
  return (
    <>
      <Section title={t("nav.cards")} empty={data.cards.length === 0 ? t("nav.noCard") : null}>
        {data.cards.map((card) => (
          <Entry key={card.id} to={href("/cards/:cardId", { cardId: card.id })} label={cardLabel(card)} />
        ))}
      </Section>
      <Section title={t("nav.wallets")} empty={data.wallets.length === 0 ? t("nav.noWallet") : null}>
        {data.wallets.map((wallet) => (
          <Entry key={wallet.id} to={href("/wallets/:walletId", { walletId: wallet.id })} label={wallet.name} />
        ))}
      </Section>
      {data.plans.length > 0 ? (
        <Section title={t("nav.plans")}>
          {data.plans.map((tab) => (
            <Entry key={tab.id} to={tab.path} label={t(tab.label)} />
          ))}
        </Section>
      ) : null}
      <Section title={t("legal.siteMap.sections.services")}>
        <Entry to={href("/store-locator")} label={t("nav.storeLocator")} />
        <Entry to={href("/notifications")} label={t("notificationCentre.title")} />
        <Entry to={href("/support")} label={t("legal.siteMap.support")} />
        {data.feedback ? <Entry to={href("/feedback")} label={t("userMenu.feedback")} /> : null}
      </Section>
      <Section title={t("legal.siteMap.sections.settings")}>
        {SETTINGS_TABS.map(([tab, path]) => (
          <Entry key={tab} to={path} label={t(`settings.tabs.${tab}`)}>
            {tab === "profile" ? (
              <ul>
                <Entry to={LIGHT_VERSION_SETTING} label={t("legal.siteMap.lightVersion")} />
              </ul>
            ) : null}
          </Entry>
        ))}
      </Section>
    </>
  );
}

/** Before signing in: the way in and the way back to an account. */
function PublicSections() {
  const { t } = useTranslation();
  return (
    <Section title={t("legal.siteMap.sections.account")}>
      <Entry to={href("/login")} label={t("auth.login.title")} />
      <Entry to={href("/lost-password")} label={t("auth.lostPassword.title")} />
    </Section>
  );
}

/** One section of the map: its heading, then its pages as a list (or the menu's words when it has none). */
function Section({ title, empty, children }: { title: string; empty?: string | null; children: ReactNode }) {
  return (
    <li>
      <h2 className="site-map__heading">{title}</h2>
      {empty ? <p>{empty}</p> : <ul className="site-map__list">{children}</ul>}
    </li>
  );
}

function Entry({ to, label, children }: { to: string; label: string; children?: ReactNode }) {
  return (
    <li>
      <Link to={to}>{label}</Link>
      {children}
    </li>
  );
}
