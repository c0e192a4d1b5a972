import { useTranslation } from "~/i18n";

/** Readable text on any configured colour: black or white, whichever contrasts more. */
export function textColourFor(hex: string): "#000000" | "#ffffff" {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  return (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) ? "#000000" : "#ffffff";
}

/** The service status text from configuration: shown on every page, not dismissable. */
export function StatusBanner({ text, color, nonce }: { text: string; color: string; nonce?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <style nonce={nonce}>{`.status-banner{background:${color};color:${textColourFor(color)}}`}</style>
      <section className="status-banner" aria-label={t("app.statusBannerLabel")}>
        <p>{text}</p>
      </section>
    </>
  );
}
