import { useTranslation } from "~/i18n";
import { useEffect } from "react";
import { href, Outlet, useLocation, useNavigation, useRevalidator, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/layout";
import { FlashAlert } from "~/components/FlashAlert";
import { AppLink, currentFor } from "~/components/AppLink";
import { Icon } from "~/components/Icon";
import { LogoMark } from "~/components/Logo";
import { SiteFooter } from "~/components/SiteFooter";
import { resetCrispOnSignOut } from "~/components/CrispChat";
import { useDisclosureMenu } from "~/components/useDisclosureMenu";
import { RefundListSkeleton, useShownSkeleton, WalletsSkeleton } from "~/components/Skeletons";
import type { loader as rootLoader } from "~/root";
import { accountContext, cardsOf, relistCards, requireAccount } from "~/routes/+shared/auth.server";
import { getPlatform } from "~/.server/platform";
import { canManageGroups, displayName, initialsOf } from "~/.server/services/accounts";
import { settleCardRequests } from "~/.server/services/card-creation";
import { listWalletNames } from "~/.server/services/wallets";
import { shellState } from "~/.server/services/shell";
import { failedTo, nullWhenFailed } from "~/routes/+shared/load-failure.server";
import { LoadFailure } from "~/components/LoadFailure";
import { SignOutButton } from "~/components/SignOutButton";
import { NewTabLink } from "~/components/NewTabLink";
import { NotificationBell } from "~/components/NotificationBell";
import { planFeaturesOf, planTabs } from "~/domain/plans";
import { clickAttributes } from "~/domain/tag-events";
import { recordsTagEvents } from "~/.server/services/analytics";

export const middleware = [requireAccount];

export async function loader({ context }: Pick<Route.LoaderArgs, "context">) {
  const account = context.get(accountContext);
  const platform = await getPlatform();
  const { db, env, issuer, supportChat, messenger, push } = platform;
  // The card in the making, the changes waiting for their code and the bell's count: one query (decision 0076).
  // A count that cannot be read leaves every page standing: the bell says it is unknown (spec 000 §8).
  const readState = () => shellState(db, account.id, nullWhenFailed("notificationCentre.fetchNotificationsFailed"));
  let state = await readState();
  // A card asked for earlier may have been made since: record it before listing.
  // A write on GET, on purpose: an idempotent sync of the issuer's state. It only turns a "submitted"
  // request the issuer has finished into its card, guarded by `status = 'submitted'` in one transaction
  // (settleCardRequest), so a second look, or two at once, records nothing more.
  if (state.cardInTheMaking) {
    await settleCardRequests(db, issuer, account.id, { messenger, push });
    // Read again after it: what is still in the making, and the notification a finished card may have sent.
    state = await readState();
    // The card it may have recorded joins the navigation: the listing the request shares is read again.
    relistCards(context, db, account.id);
  }
  const [cards, wallets, pingClicks] = await Promise.all([
    // The request's one listing of the person's cards (requireAccount read it), shared with the card page.
    cardsOf(context, db, account.id).catch(failedTo("nav.fetchCardsFailed")),
    listWalletNames(db, account.id).catch(failedTo("wallets.errors.fetchWalletsFailed")),
    recordsTagEvents(platform, account.id),
  ]);
  return {
    user: {
      initials: initialsOf(account),
      name: displayName(account),
      groups: account.groups.map((g) => g.name),
      canManage: canManageGroups(account),
    },
    cards,
    cardInTheMaking: state.cardInTheMaking,
    // Spec 001 §4: a change waiting for its code is offered on every page until settled.
    pendingFields: state.pendingFields,
    wallets,
    // The header's bell (spec 000 §2); the notification centre's panel lowers it.
    unreadNotifications: state.unread,
    // The plans page's tabs this account has (spec 001 §2.5): only pages that exist.
    plans: planTabs(planFeaturesOf(account)).map(({ id, path, label }) => ({ id, path, label })),
    links: {
      faq: env.FAQ_URL,
      landing: env.LANDING_URL,
      manager: env.MANAGER_URL,
      feedback: env.ANALYTICS_KEY ? "/feedback" : null,
    },
    // Crisp's browser session is reset on sign-out (issue 16 §5); the sandbox chat has none.
    chat: supportChat.kind,
    // The tag manager's link clicks carry their `ping` only when the server records them (decision 0031).
    pingClicks,
  };
}

export type AppLayoutData = Awaited<ReturnType<typeof loader>>;

export function useAppLayoutData(): AppLayoutData {
  const data = useRouteLoaderData<typeof loader>("routes/shell/layout");
  if (!data) throw new Error("useAppLayoutData outside the signed-in layout");
  return data;
}

function SideNav({ data }: { data: AppLayoutData }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // Each entry's click is the tag manager's clickMenu with the entry's page as target (decision 0031); the entry
  // of the page shown (or of a page below it) is the current one.
  const entry = (target: string) => ({
    to: target,
    "aria-current": currentFor(pathname, target),
    ...clickAttributes({ name: "clickMenu", properties: { target } }, data.pingClicks),
  });
  return (
    <ul className="side-nav__sections">
      <li>
        <h2 className="side-nav__heading">{t("nav.cards")}</h2>
        {data.cards.length === 0 ? (
          <p className="side-nav__empty">{t("nav.noCard")}</p>
        ) : (
          <ul className="side-nav__list">
            {data.cards.map((card) => {
              const to = href("/cards/:cardId", { cardId: card.id });
              return (
                <li key={card.id}>
                  <AppLink className="side-nav__link" {...entry(to)}>
                    {t(card.type === "virtual" ? "nav.virtualCard" : "nav.physicalCard", { lastFour: card.lastFour })}
                    {card.blocked ? ` ${t("nav.blockedSuffix")}` : null}
                  </AppLink>
                </li>
              );
            })}
          </ul>
        )}
      </li>
      <li>
        <h2 className="side-nav__heading">{t("nav.wallets")}</h2>
        {data.wallets.length === 0 ? (
          <p className="side-nav__empty">{t("nav.noWallet")}</p>
        ) : (
          <ul className="side-nav__list">
            {data.wallets.map((wallet) => {
              const to = href("/wallets/:walletId", { walletId: wallet.id });
              return (
                <li key={wallet.id}>
                  <AppLink className="side-nav__link" {...entry(to)}>
                    {wallet.name}
                  </AppLink>
                </li>
              );
            })}
          </ul>
        )}
      </li>
      {data.plans.length > 0 ? (
        <li>
          <h2 className="side-nav__heading">{t("nav.plans")}</h2>
          <ul className="side-nav__list">
            {data.plans.map((tab) => (
              <li key={tab.id}>
                <AppLink className="side-nav__link" {...entry(tab.path)}>
                  {t(tab.label)}
                </AppLink>
              </li>
            ))}
          </ul>
        </li>
      ) : null}
      <li>
        <AppLink className="side-nav__link side-nav__link--top" {...entry("/store-locator")}>
          {t("nav.storeLocator")}
        </AppLink>
      </li>
    </ul>
  );
}

function UserMenu({ data }: { data: AppLayoutData }) {
  const { t } = useTranslation();
  const location = useLocation();
  const menu = useDisclosureMenu();
  const external = (href: string, label: string) => (
    <li>
      <NewTabLink href={href}>{label}</NewTabLink>
    </li>
  );
  return (
    <details className="user-menu" key={location.key} ref={menu}>
      <summary className="user-menu__toggle">
        {/* The visible initials start the accessible name (label in name, WCAG 2.5.3). */}
        <span className="user-menu__initials">{data.user.initials}</span>
        <span className="visually-hidden"> {t("userMenu.openLabel", { name: data.user.name })}</span>
        <span className="user-menu__groups">{data.user.groups.join(", ")}</span>
      </summary>
      <div className="user-menu__panel">
        <p className="user-menu__name">{data.user.name}</p>
        <p className="user-menu__meta">{t("userMenu.groups", { groups: data.user.groups.join(", ") })}</p>
        <ul className="user-menu__list">
          <li>
            <AppLink to="/settings/profile">{t("userMenu.settings")}</AppLink>
          </li>
          {external(data.links.faq, t("userMenu.faq"))}
          <li>
            <AppLink to="/terms">{t("userMenu.legal")}</AppLink>
          </li>
          <li>
            <AppLink to="/privacy">{t("userMenu.privacy")}</AppLink>
          </li>
          {data.user.canManage ? external(data.links.manager, t("userMenu.manager")) : null}
          {external(data.links.landing, t("userMenu.landing"))}
          {data.links.feedback ? (
            <li>
              <AppLink to={data.links.feedback}>{t("userMenu.feedback")}</AppLink>
            </li>
          ) : null}
        </ul>
        <SignOutButton look="menu" />
      </div>
    </details>
  );
}

/** The small-screen navigation: after the user menu, so that an open panel, in flow, follows what precedes it. */
function MobileMenu({ data }: { data: AppLayoutData }) {
  const { t } = useTranslation();
  // Menus close when the page changes, as they would on a full page load.
  const location = useLocation();
  // Spec 001 §2.2 "Closing the menu scrolls the header to the top": the open list may have been scrolled
  // far down; closed by its button or Escape, the header (and the button, which has focus) is back in view.
  const menu = useDisclosureMenu({
    onDismiss: () => document.querySelector(".site-header")?.scrollIntoView({ block: "start" }),
  });
  return (
    <details className="mobile-menu" key={location.key} ref={menu}>
      <summary className="mobile-menu__toggle">{t("nav.openMenu")}</summary>
      <nav className="side-nav side-nav--mobile" aria-label={t("nav.label")}>
        <SideNav data={data} />
      </nav>
    </details>
  );
}

/** Spec 000 §4: after a card is asked for, the cards are read again 10 s later (JS); without JS, on the next page. */
function CardInTheMaking() {
  const { t } = useTranslation();
  const { revalidate } = useRevalidator();
  useEffect(() => {
    const timer = setTimeout(() => void revalidate(), CARD_REFETCH_MS);
    return () => clearTimeout(timer);
  }, [revalidate]);
  return (
    <p className="alert alert--info" role="status">
      {t("cards.create.inTheMaking")}
    </p>
  );
}

const CARD_REFETCH_MS = 10_000;

/** "A change is in progress: confirm or cancel" (spec 001 §8 fixed text), on every page but its own. */
function PendingChangeNotice({ fields }: { fields: ("email" | "phone")[] }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const shown = fields.filter(
    (field) => pathname !== href("/settings/profile/confirm/:field", { field }) && pathname !== "/settings/profile",
  );
  if (shown.length === 0) return null;
  return (
    <div className="alert alert--info">
      {shown.map((field) => (
        <p key={field}>
          {t(field === "email" ? "settings.pendingChange.noticeEmail" : "settings.pendingChange.noticePhone")}{" "}
          <AppLink to={href("/settings/profile/confirm/:field", { field })}>
            {t("settings.pendingChange.noticeLink")}
          </AppLink>
        </p>
      ))}
    </div>
  );
}

/** The header's support chat button (spec 000 §2): opens /support over the current page. */
function SupportButton() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  if (pathname === "/support") return null;
  return (
    <AppLink to={`${href("/support")}?back=${encodeURIComponent(pathname)}`} className="support-button">
      <Icon name="help" />
      {/* Visually hidden on a phone, where the icon alone keeps the header on one line; still the link's name. */}
      <span className="support-button__text">{t("support.open")}</span>
    </AppLink>
  );
}

/** The shell around every signed-in page: skip link, header, navigation, main, footer. */
function Shell({ data, children }: { data: AppLayoutData | undefined; children: React.ReactNode }) {
  const { t } = useTranslation();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const product = root?.productName ?? "";
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        {t("app.skipLink")}
      </a>
      <header className="site-header">
        <AppLink className="logo" to="/cards" aria-label={t("app.logoLabel", { product })}>
          <LogoMark />
          <span className="logo__text" aria-hidden="true">
            {product}
          </span>
        </AppLink>
        <SupportButton />
        {data ? (
          <>
            <NotificationBell unread={data.unreadNotifications} />
            <UserMenu data={data} />
            <MobileMenu data={data} />
          </>
        ) : (
          <SignOutButton look="menu" />
        )}
      </header>
      <div className="app-body">
        <nav className="side-nav side-nav--desktop" aria-label={t("nav.label")}>
          {data ? <SideNav data={data} /> : <SectionsNav />}
        </nav>
        <main id="main" className="app-main" tabIndex={-1}>
          {children}
        </main>
      </div>
      <SiteFooter />
    </div>
  );
}

/** The navigation's sections without their cards and wallets: what the shell can offer when those failed to load. */
function SectionsNav() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // The plans tabs every account has (none until integrations is built, issue 16).
  const sections = [
    ["/cards", "nav.cards"],
    ["/wallets", "nav.wallets"],
    ...planTabs(null).map((tab) => [tab.path, tab.label] as const),
    ["/store-locator", "nav.storeLocator"],
  ] as const;
  return (
    <ul className="side-nav__sections">
      {sections.map(([to, label]) => (
        <li key={to}>
          <AppLink
            to={to}
            className="side-nav__link side-nav__link--top"
            aria-current={currentFor(pathname, to)}
            {...clickAttributes({ name: "clickMenu", properties: { target: to } }, false)}
          >
            {t(label)}
          </AppLink>
        </li>
      ))}
    </ul>
  );
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  useEffect(() => (loaderData.chat === "browser" ? resetCrispOnSignOut() : undefined), [loaderData.chat]);
  return (
    <Shell data={loaderData}>
      <FlashAlert />
      {loaderData.cardInTheMaking ? <CardInTheMaking /> : null}
      <PendingChangeNotice fields={loaderData.pendingFields} />
      <PendingOutlet plans={loaderData.plans} />
    </Shell>
  );
}

/**
 * The page, or, while a client navigation enters the wallets or the refund list, that place's loading
 * skeleton (spec 000 §2, 001 §2.6; components/Skeletons.tsx). The list's tabs and its new request's
 * panel draw theirs inside the list (routes/refunds/list.tsx).
 */
function PendingOutlet({ plans }: { plans: AppLayoutData["plans"] }) {
  const skeleton = useShownSkeleton();
  const navigation = useNavigation();
  if (skeleton === "wallets") return <WalletsSkeleton />;
  if (skeleton === "refunds") return <RefundListSkeleton plans={plans} to={navigation.location?.search ?? ""} />;
  return <Outlet />;
}

/**
 * A signed-in page that failed without a boundary of its own, or this layout's own loader: the shell
 * stays (with the full navigation when this layout's data loaded, its sections otherwise) and the page's
 * place says what failed (spec 000 §8).
 */
export function ErrorBoundary() {
  const { t } = useTranslation();
  const data = useRouteLoaderData<typeof loader>("routes/shell/layout");
  return (
    <Shell data={data}>
      <LoadFailure title={t("serverError.title")} />
    </Shell>
  );
}
