import type { ReactNode } from "react";
import { useTranslation } from "~/i18n";

/** A link to another site, opened in a new tab: the link says so to screen readers (RGAA 13.2). */
export function NewTabLink({ href, children }: { href: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children} <span className="visually-hidden">{t("userMenu.newTab")}</span>
    </a>
  );
}
