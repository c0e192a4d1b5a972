import { href } from "react-router";

/**
 * The settings' three tabs (spec 001 §2.4), each a page of its own, in one place: the settings layout draws
 * them and the site map (`/plan-du-site`) lists them from here. The label is `settings.tabs.<tab>`.
 */
export const SETTINGS_TABS = [
  ["profile", href("/settings/profile")],
  ["notifications", href("/settings/notifications")],
  ["security", href("/settings/security")],
] as const;
