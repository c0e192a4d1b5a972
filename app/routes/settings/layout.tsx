import { NavLink, Outlet } from "react-router";
import { useTranslation } from "~/i18n";
import { SETTINGS_TABS } from "~/domain/settings-tabs";

/** Settings (spec 001 §2.4): three tabs that are links, each a page of its own. */

export default function SettingsLayout() {
  const { t } = useTranslation();
  return (
    <div className="settings">
      <nav aria-label={t("settings.tabsLabel")}>
        <ul className="tabs">
          {SETTINGS_TABS.map(([tab, path]) => (
            <li key={tab}>
              <NavLink to={path} className="tabs__link">
                {t(`settings.tabs.${tab}`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}
