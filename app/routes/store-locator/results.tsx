import type { ReactNode } from "react";
import { Link, useSearchParams } from "react-router";
import { useTranslation } from "~/i18n";
import { Icon } from "~/components/Icon";
import { NewTabLink } from "~/components/NewTabLink";
import { directionsUrl, formatDistance, STORE_PAGE_SIZE, widerRadius } from "~/domain/store-locator";
import type { Shop, StoreSearchResult } from "~/.server/services/store-locator";
import type { Place } from "~/.server/providers/geodata";

/** The same search with some parameters changed (a page, a radius, a commune picked): a link, with or without JS. */
function useSearchWith() {
  const [params] = useSearchParams();
  return (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    return `?${next.toString()}`;
  };
}

/** "Lyon 3e Arrondissement (69003)" when searched by postcode, "Lyon (Rhône)" by town. */
const placeName = (place: Place, byPostcode: boolean) =>
  `${place.name} (${byPostcode ? place.postcode : place.department.name})`;

/**
 * The answer to a search: its title said when it changes (a status), and focused after a search with JavaScript
 * (index.tsx), then what it holds.
 */
function ResultsSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="store-results" aria-labelledby="store-results-title">
      <div role="status">
        <h2 id="store-results-title" tabIndex={-1}>
          {title}
        </h2>
      </div>
      {children}
    </section>
  );
}

/** What a search found: the shops, the communes to pick from, or why there is nothing to list. */
export function StoreResults({
  result,
  query,
}: {
  result: Exclude<StoreSearchResult, { kind: "refused" }>;
  /** The search as typed. */
  query: string;
}) {
  const { t } = useTranslation();
  switch (result.kind) {
    case "noWallet":
      return (
        <ResultsSection title={t("storeLocator.noWallet.title")}>
          <p>{t("storeLocator.noWallet.text")}</p>
          <p>
            <Link to="/wallets">{t("storeLocator.noWallet.link")}</Link>
          </p>
        </ResultsSection>
      );
    case "choose":
      return <PlaceChoice places={result.places} query={query} />;
    case "found":
      return <ShopList result={result} />;
  }
}

/**
 * Homonyms (or, when no commune has the name typed, the communes whose names begin with it): each with its
 * département, a link to the search around it.
 */
function PlaceChoice({ places, query }: { places: Place[]; query: string }) {
  const { t } = useTranslation();
  const searchWith = useSearchWith();
  const name = places[0]!.name;
  const homonyms = places.every((p) => p.name === name);
  return (
    <ResultsSection
      title={homonyms ? t("storeLocator.choose.title", { name }) : t("storeLocator.choose.similar", { query })}
    >
      <p>{t("storeLocator.choose.intro")}</p>
      <ul className="store-places">
        {places.map((place) => (
          <li key={place.code}>
            <Link className="store-places__link" to={searchWith({ commune: place.code, page: null })}>
              {t("storeLocator.choose.place", {
                name: place.name,
                department: place.department.name,
                code: place.department.code,
              })}
            </Link>
          </li>
        ))}
      </ul>
    </ResultsSection>
  );
}

function ShopList({ result }: { result: Extract<StoreSearchResult, { kind: "found" }> }) {
  const { t } = useTranslation();
  const searchWith = useSearchWith();
  const { place, radiusKm, total, page, pageCount, shops } = result;
  const where = placeName(place, result.byPostcode);
  if (total === 0) {
    const wider = widerRadius(radiusKm);
    return (
      <ResultsSection title={t("storeLocator.results.none", { radius: radiusKm, place: where })}>
        <p>
          {wider ? (
            <Link to={searchWith({ radius: String(wider), page: null })}>
              {t("storeLocator.results.wider", { radius: wider })}
            </Link>
          ) : (
            t("storeLocator.results.widest")
          )}
        </p>
      </ResultsSection>
    );
  }
  return (
    <ResultsSection
      title={t(`storeLocator.results.count.${total === 1 ? "one" : "other"}`, {
        count: total,
        radius: radiusKm,
        place: where,
      })}
    >
      <p className="hint">{t("storeLocator.results.estimate")}</p>
      <ol className="shop-list" start={(page - 1) * STORE_PAGE_SIZE + 1}>
        {shops.map((shop) => (
          <ShopItem key={shop.id} shop={shop} />
        ))}
      </ol>
      {pageCount > 1 ? (
        <nav className="store-pages" aria-label={t("storeLocator.results.pages")}>
          {page > 1 ? (
            <Link className="button button--secondary" to={searchWith({ page: String(page - 1) })}>
              {t("storeLocator.results.previous")}
            </Link>
          ) : null}
          <span aria-current="page">{t("storeLocator.results.pageOf", { page, pages: pageCount })}</span>
          {page < pageCount ? (
            <Link className="button button--secondary" to={searchWith({ page: String(page + 1) })}>
              {t("storeLocator.results.next")}
            </Link>
          ) : null}
        </nav>
      ) : null}
      {total > pageCount * STORE_PAGE_SIZE ? (
        <p className="hint">{t("storeLocator.results.more", { count: total })}</p>
      ) : null}
    </ResultsSection>
  );
}

function ShopItem({ shop }: { shop: Shop }) {
  const { t } = useTranslation();
  return (
    <li className="shop">
      <h3 className="shop__name">{shop.name}</h3>
      <p className="shop__distance">
        <Icon name="pin" />
        {shop.distanceMeters === 0
          ? t("storeLocator.results.sameCommune")
          : t("storeLocator.results.distance", { distance: formatDistance(shop.distanceMeters) })}
      </p>
      <p className="shop__address">
        {shop.line1}, {shop.zipcode} {shop.city}
      </p>
      <p className="shop__wallets">
        <Icon name="wallet" />
        {t("storeLocator.results.accepts", { wallets: shop.wallets.map((w) => w.name).join(", ") })}
      </p>
      <p className="shop__directions">
        <NewTabLink href={directionsUrl(shop)}>
          {t("storeLocator.results.directions")}
          <span className="visually-hidden"> {t("storeLocator.results.directionsTo", { name: shop.name })}</span>
        </NewTabLink>
      </p>
    </li>
  );
}
