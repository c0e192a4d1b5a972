import { data, Outlet, useLocation } from "react-router";
import { AppLink, currentFor } from "~/components/AppLink";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/layout";
import { planFeaturesOf, planTabOf, planTabs } from "~/domain/plans";
import { accountContext } from "~/routes/+shared/auth.server";

/**
 * The plans page (spec 001 §2.5): its heading and its tabs, links built from the account's features
 * (`~/domain/plans`), as the settings area does. A tab's pages answer 404 to an account without its
 * feature, or while the tab is not built. Pages inside name the document themselves (`DocumentTitle`)
 * and start their headings at <h2>: the <h1> is this layout's.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const features = planFeaturesOf(context.get(accountContext));
  const tabs = planTabs(features);
  const here = planTabOf(new URL(request.url).pathname);
  if (here && !tabs.some((tab) => tab.id === here.id)) throw data(null, { status: 404 });
  return { tabs: tabs.map(({ id, path, label }) => ({ id, path, label })) };
}

export default function PlansLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <div className="plans">
      <div className="toolbar">
        <h1 className="toolbar__title">{t("plans.title")}</h1>
      </div>
      {loaderData.tabs.length > 0 ? (
        <nav aria-label={t("plans.tabsLabel")}>
          <ul className="tabs">
            {loaderData.tabs.map((tab) => (
              <li key={tab.id}>
                <AppLink to={tab.path} className="tabs__link" aria-current={currentFor(pathname, tab.path)}>
                  {t(tab.label)}
                </AppLink>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <Outlet />
    </div>
  );
}
