import { useTranslation } from "~/i18n";

const BRAND_NAMES: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  "american-express": "American Express",
  amex: "American Express",
  bancontact: "Bancontact",
};

/** The card drawn in CSS; every fact on it is also plain text for assistive technologies. */
export function CardVisual({ type, brand, lastFour, frozen }: { type: "physical" | "virtual"; brand: string; lastFour: string; frozen: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={`card-visual card-visual--${type}${frozen ? " card-visual--frozen" : ""}`}>
      <span className="card-visual__type">{t(type === "virtual" ? "cards.typeVirtual" : "cards.typePhysical")}</span>
      <span className="card-visual__number">
        <span aria-hidden="true">•••• •••• •••• </span>
        <span className="visually-hidden">{t("cards.maskedNumber")} </span>
        {lastFour}
      </span>
      <span className="card-visual__brand">{BRAND_NAMES[brand] ?? brand}</span>
      {frozen ? <span className="card-visual__badge">{t("cards.frozenBadge")}</span> : null}
    </div>
  );
}
