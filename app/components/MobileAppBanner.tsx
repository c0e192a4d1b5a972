import { useTranslation } from "~/i18n";

export function MobileAppBanner({
  platform,
  product,
  href,
}: {
  platform: "ios" | "android";
  product: string;
  href: string;
}) {
  const { t } = useTranslation();
  return (
    <section className="app-banner" aria-label={t("mobileBanner.label")}>
      <p>{t(platform === "ios" ? "mobileBanner.ios" : "mobileBanner.android", { product })}</p>
      <a href={href} rel="noopener">
        {t("mobileBanner.open")}
      </a>
    </section>
  );
}
