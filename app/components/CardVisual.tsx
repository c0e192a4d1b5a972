import { useTranslation } from "~/i18n";
import { Icon } from "./Icon";

/**
 * Spec 000 §3 "Supported card brands": each has its name (catalogue `cards.brands.*`) and its look
 * (`card-visual--brand-*` in app.css). The spec does not name its two meal-voucher kinds: they are
 * `meal-voucher` and `meal-voucher-card` here. An unknown brand shows as the issuer sent it.
 */
export const CARD_BRANDS = [
  "activ",
  "american-express",
  "amex",
  "bancontact",
  "card",
  "mastercard",
  "visa",
  "meal-voucher",
  "meal-voucher-card",
] as const;

const isKnownBrand = (brand: string): brand is (typeof CARD_BRANDS)[number] =>
  (CARD_BRANDS as readonly string[]).includes(brand);

/** The card drawn in CSS; every fact on it is also plain text for assistive technologies. */
export function CardVisual({
  type,
  brand,
  lastFour,
  frozen,
}: {
  type: "physical" | "virtual";
  brand: string;
  lastFour: string;
  frozen: boolean;
}) {
  const { t } = useTranslation();
  const known = isKnownBrand(brand);
  return (
    <div
      className={`card-visual card-visual--${type}${known ? ` card-visual--brand-${brand}` : ""}${frozen ? " card-visual--frozen" : ""}`}
    >
      <span className="card-visual__type">{t(type === "virtual" ? "cards.typeVirtual" : "cards.typePhysical")}</span>
      <span className="card-visual__number">
        <span aria-hidden="true">•••• •••• •••• </span>
        <span className="visually-hidden">{t("cards.maskedNumber")} </span>
        {lastFour}
      </span>
      <span className="card-visual__brand">{known ? t(`cards.brands.${brand}`) : brand}</span>
      {frozen ? (
        <span className="card-visual__badge">
          <Icon name="snowflake" />
          {t("cards.frozenBadge")}
        </span>
      ) : null}
    </div>
  );
}
