import { getFormProps } from "~/components/forms/useForm";
import { type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useRef } from "react";
import { data, Form, useLocation, useRouteLoaderData } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/index";
import type { loader as rootLoader } from "~/root";
import { PageHeader } from "~/components/PageHeader";
import { ErrorSummary, Field, Select, useForm } from "~/components/forms";
import { accountContext } from "~/routes/+shared/auth.server";
import { getLocale } from "~/i18n/i18next.server";
import { getPlatform } from "~/.server/platform";
import { searchShops } from "~/.server/services/store-locator";
import { parseStoreQuery, STORE_RADII_KM, type StoreQuery } from "~/domain/store-locator";
import { storeSearchSchema, type StoreSearchForm } from "~/domain/store-locator-schemas";
import { StoreResults } from "./results";

/**
 * /store-locator (spec 001 §2.9, issue 30 item 6): the partner shops that accept the person's wallets around a
 * postcode or a town, nearest first. A GET form, so the search is in the URL and works without JavaScript; a
 * refused search answers 400 with the form contract's reply (the field marked invalid with its message). The
 * mobile apps' badges stay below, for what the app does more (a map, the search around you, suggestions).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const userId = context.get(accountContext).id;
  const params = new URL(request.url).searchParams;
  // What the form shows: the search as typed, the radius searched (the default when made up).
  const values = {
    q: params.get("q") ?? "",
    radius: String(storeSearchSchema.shape.radius.parse(params.get("radius") ?? undefined)),
  };
  // The first visit: the form alone, nothing refused yet.
  if (!params.has("q")) return { values, lastResult: null, result: null };
  const submission = parseWithZod(params, { schema: storeSearchSchema });
  if (submission.status !== "success") return refusedSearch(values, submission.reply());
  const { q, commune, radius, page } = submission.value;
  const { db, geodata } = await getPlatform();
  const result = await searchShops(
    db,
    geodata,
    userId,
    // Checked by the schema: `q` names a postcode or a town.
    { query: parseStoreQuery(q) as StoreQuery, commune, radiusKm: radius, page },
    { locale: getLocale(context) },
  );
  if (result.kind === "refused") return refusedSearch(values, submission.reply({ fieldErrors: { q: [result.error] } }));
  return { values, lastResult: null, result };
}

/**
 * A refused search: the form contract's reply, 400. The radius shows as searched (the default when the URL had
 * none): the reply holds only what was sent.
 */
function refusedSearch(values: { q: string; radius: string }, reply: SubmissionResult<string[]>) {
  const lastResult = { ...reply, initialValue: { ...reply.initialValue, radius: values.radius } };
  return data({ values, lastResult, result: null }, { status: 400 });
}

export default function StoreLocator({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { values, lastResult, result } = loaderData;
  useFocusResults(lastResult?.status === "error");
  return (
    <div className="store-locator">
      <PageHeader title={t("storeLocator.title")} error={lastResult?.status === "error"} />
      {/* A new form for each search (links change the URL too: a homonym picked, a wider radius). */}
      <SearchForm key={`${values.q}\n${values.radius}`} values={values} lastResult={lastResult} />
      {result ? <StoreResults result={result} query={values.q} /> : null}
      <MobileApps />
    </div>
  );
}

/**
 * With JavaScript, a new search (the form, a page, a homonym picked, a wider radius) stays on this page: focus
 * moves to the results' title, so a screen reader starts there; a refused search leaves it to the error summary.
 */
function useFocusResults(refused: boolean) {
  const { search } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (!refused) document.getElementById("store-results-title")?.focus();
  }, [search]); // eslint-disable-line react-hooks/exhaustive-deps
}

/** The error summary (a refused search), then the search: a GET form, the query and the radius in the URL. */
function SearchForm({
  values,
  lastResult,
}: {
  values: { q: string; radius: string };
  lastResult: Route.ComponentProps["loaderData"]["lastResult"];
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm<StoreSearchForm>({ id: "store-search", lastResult, defaultValue: values });
  return (
    <>
      <ErrorSummary form={form} fields={[fields.q]} />
      <p className="store-locator__intro">{t("storeLocator.intro")}</p>
      <Form method="get" role="search" className="store-search" {...getFormProps(form)} noValidate>
        <Field
          required
          field={fields.q}
          label={t("storeLocator.search.label")}
          hint={t("storeLocator.search.hint")}
          className="store-search__query"
          spellCheck={false}
          enterKeyHint="search"
        />
        <Select
          field={fields.radius}
          label={t("storeLocator.search.radius")}
          className="store-search__radius"
          options={STORE_RADII_KM.map((km) => ({
            value: String(km),
            label: t("storeLocator.search.radiusOption", { count: km }),
          }))}
        />
        <button type="submit" className="button store-search__submit">
          {t("storeLocator.search.submit")}
        </button>
      </Form>
    </>
  );
}

/** The spec's message, kept as a secondary block: the mobile app does more (a map, around you, suggestions). */
function MobileApps() {
  const { t } = useTranslation();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  return (
    <aside className="store-locator__apps" aria-labelledby="store-locator-apps">
      <h2 id="store-locator-apps" className="store-locator__apps-title">
        {t("storeLocator.apps.title")}
      </h2>
      <p>{t("storeLocator.apps.text", { product: root?.productName ?? "" })}</p>
      <ul className="store-locator__badges">
        <li>
          <a className="store-badge" href={root?.stores.appStore} rel="noopener">
            {t("storeLocator.appStore")}
          </a>
        </li>
        <li>
          <a className="store-badge" href={root?.stores.playStore} rel="noopener">
            {t("storeLocator.playStore")}
          </a>
        </li>
      </ul>
    </aside>
  );
}
