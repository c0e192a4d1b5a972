import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from "react";
import { Link } from "react-router";
import { useTranslation, type Translate } from "~/i18n";
import { choiceTarget, Field, Radios, type ChoiceOption, type FieldMeta, type SummaryField } from "~/components/forms";
import {
  PARTNER_SEARCH_DEBOUNCE_MS,
  PARTNER_SEARCH_MAX_LENGTH,
  type PartnerOption,
  type PartnerPageSize,
} from "~/domain/partners";

/**
 * The partner field of a conform form (spec 001 §2.6 details step): a search box, a "Rechercher"
 * button, and the results as radios; disabled partners are listed with their reason and cannot be
 * chosen. The page searches on the server (`searchPartners`) and gives the results; with JavaScript
 * the search also runs 1.5 s after typing stops (or at once on "Rechercher" or Enter), from the JSON
 * route `/plans/partners?q=&limit=`, and the list is updated in place; the chosen partner stays chosen
 * (listed first when a new search does not find it).
 *
 * Props:
 * - `field` — conform's metadata of the chosen partner (radios named `field.name`, e.g. `partnerId`);
 *   its errors show on the results' group, and `field.initialValue` is the chosen id.
 * - `query` — the search the page ran (shown in the box, named `partnerSearch`).
 * - `results` — the partners the page found for `query`: `searchPartners(db, query, { limit, locale })`.
 * - `selected` — the chosen partner (`getPartner`), if any: kept listed even when not in `results`.
 * - `limit` — 10 (default), or 15 when the search was prefilled from the reading of the receipt.
 * - `suggestHref` — where "Suggérer un établissement" leads:
 *   `internalPath("/plans/suggest-establishment", {}, { search: { back: <this page's path> } })`.
 * - `searchMethod` — how the search is sent without JavaScript. "post" (default): the form is posted
 *   with `intent=searchPartner` (`PARTNER_SEARCH_INTENT`); the page's action keeps what was typed (its
 *   draft), reads the search with `readPartnerSearch(form)` and shows the page again with its results.
 *   "get": the button has `formmethod="get"`, so the form's fields go to the page's own URL
 *   (`?partnerSearch=…&intent=searchPartner&…`) and the loader searches; the URL must then hold
 *   everything the page needs (a query string in the form's action is dropped by the browser).
 * - `legend`, `hint` — the group's legend (default "Établissement") and hint.
 *
 * For the error summary: `partnerSummaryField(field, results, selected)` gives the entry whose link
 * goes to the first partner that can be chosen (or the group).
 *
 * Without JavaScript, Enter in any text field of the form presses its first submit button: place the
 * picker after the fields where Enter should continue, or accept that Enter searches.
 */
export interface PartnerPickerProps {
  field: FieldMeta;
  query: string;
  results: readonly PartnerOption[];
  selected?: PartnerOption | null;
  limit?: PartnerPageSize;
  suggestHref: string;
  searchMethod?: "post" | "get";
  legend?: string;
  hint?: string;
}

/** The search box's name, and the intent of the "Rechercher" button. */
export const PARTNER_SEARCH_FIELD = "partnerSearch";
export const PARTNER_SEARCH_INTENT = "searchPartner";

/** The JSON search of `routes/partners/search.ts`. */
export const PARTNER_SEARCH_ROUTE = "/plans/partners";

/** The search typed in a submitted form (or a URL's query), trimmed and cut to a sane length. */
export function readPartnerSearch(source: FormData | URLSearchParams): string {
  const value = source.get(PARTNER_SEARCH_FIELD);
  return typeof value === "string" ? value.trim().slice(0, PARTNER_SEARCH_MAX_LENGTH) : "";
}

/** The address of the JSON search for `query`. */
export function partnerSearchUrl(query: string, limit: PartnerPageSize): string {
  return `${PARTNER_SEARCH_ROUTE}?${new URLSearchParams({ q: query.trim(), limit: String(limit) })}`;
}

/** The partners listed: the chosen one first when the search did not find it, so it stays chosen. */
export function listedPartners(
  results: readonly PartnerOption[],
  selected: PartnerOption | null | undefined,
): PartnerOption[] {
  if (!selected || results.some((p) => p.id === selected.id)) return [...results];
  return [selected, ...results];
}

/** The radios: name, then the address, or why a disabled partner cannot be chosen. */
export function partnerChoices(partners: readonly PartnerOption[], t: Translate): ChoiceOption[] {
  return partners.map((p) => ({
    value: p.id,
    label: p.name,
    hint: p.enabled ? `${p.line1}, ${p.zipcode} ${p.city}` : (p.disabledReason ?? t("partners.picker.disabledDefault")),
    hintUnavailable: !p.enabled,
    disabled: !p.enabled,
  }));
}

/** The error summary's entry for the partner field: its link goes to the first partner that can be chosen. */
export function partnerSummaryField(
  field: FieldMeta,
  results: readonly PartnerOption[],
  selected?: PartnerOption | null,
): SummaryField {
  const options = listedPartners(results, selected).map((p) => ({ value: p.id, label: p.name, disabled: !p.enabled }));
  return { field, target: choiceTarget(field, options) };
}

export type SearchStatus = "done" | "searching" | "failed";

/** What the live region says about the search (a catalogue key and its values). */
export function searchStatusMessage(
  state: { query: string; results: readonly PartnerOption[]; status: SearchStatus },
  t: Translate,
): string {
  if (state.status === "searching") return t("partners.picker.searching");
  if (state.status === "failed") return t("partners.picker.searchFailed");
  if (state.query.trim() === "") return t("partners.picker.typeToSearch");
  const count = state.results.length;
  if (count === 0) return t("partners.picker.noResult", { query: state.query.trim() });
  return t(count === 1 ? "partners.picker.results.one" : "partners.picker.results.other", {
    count,
    query: state.query.trim(),
  });
}

function isAnswer(value: unknown): value is { partners: PartnerOption[] } {
  return typeof value === "object" && value !== null && Array.isArray((value as { partners?: unknown }).partners);
}

export function PartnerPicker({
  field,
  query,
  results,
  selected,
  limit = 10,
  suggestHref,
  searchMethod = "post",
  legend,
  hint,
}: PartnerPickerProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState<{ query: string; results: readonly PartnerOption[]; status: SearchStatus }>({
    query,
    results,
    status: "done",
  });
  const [chosen, setChosen] = useState<PartnerOption | null>(selected ?? null);
  // A new answer of the page (its loader or action searched again): what it found replaces the list.
  const [answered, setAnswered] = useState({ query, results, selected });
  if (answered.query !== query || answered.results !== results || answered.selected !== selected) {
    setAnswered({ query, results, selected });
    setSearch({ query, results, status: "done" });
    if (selected !== answered.selected) setChosen(selected ?? null);
  }

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef<AbortController | null>(null);
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      inFlight.current?.abort();
    },
    [],
  );

  async function run(typed: string) {
    clearTimeout(timer.current);
    inFlight.current?.abort();
    const q = typed.trim().slice(0, PARTNER_SEARCH_MAX_LENGTH);
    if (q === "") {
      setSearch({ query: "", results: [], status: "done" });
      return;
    }
    const controller = new AbortController();
    inFlight.current = controller;
    setSearch((s) => ({ ...s, query: q, status: "searching" }));
    try {
      const response = await fetch(partnerSearchUrl(q, limit), {
        headers: { Accept: "application/json" },
        signal: controller.signal,
      });
      // Signed out meanwhile, the route answers with the sign-in page: not JSON.
      const answer: unknown = response.ok ? await response.json() : null;
      if (controller.signal.aborted) return;
      setSearch(
        isAnswer(answer)
          ? { query: q, results: answer.partners, status: "done" }
          : { query: q, results: [], status: "failed" },
      );
    } catch {
      if (!controller.signal.aborted) setSearch({ query: q, results: [], status: "failed" });
    }
  }

  /** "Rechercher" or Enter in the box: search at once, without submitting the form. */
  const searchNow = (event: MouseEvent<HTMLElement> | KeyboardEvent<HTMLElement>) => {
    event.preventDefault();
    const box = event.currentTarget
      .closest(".partner-picker")
      ?.querySelector<HTMLInputElement>(`input[name="${PARTNER_SEARCH_FIELD}"]`);
    void run(box?.value ?? "");
  };

  const listed = listedPartners(search.results, chosen);
  const searchField: FieldMeta = {
    id: `${field.id}-search`,
    name: PARTNER_SEARCH_FIELD,
    errorId: `${field.id}-search-error`,
    initialValue: query,
    key: field.key,
  };

  return (
    <fieldset className="fieldset partner-picker" aria-describedby={hint ? `${field.id}-picker-hint` : undefined}>
      <legend>{legend ?? t("partners.picker.legend")}</legend>
      {hint ? (
        <p className="field__hint" id={`${field.id}-picker-hint`}>
          {hint}
        </p>
      ) : null}
      <div className="partner-picker__search">
        <Field
          field={searchField}
          type="search"
          label={t("partners.picker.searchLabel")}
          hint={t("partners.picker.searchHint")}
          maxLength={PARTNER_SEARCH_MAX_LENGTH}
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          onChange={(event) => {
            const typed = event.currentTarget.value;
            clearTimeout(timer.current);
            timer.current = setTimeout(() => void run(typed), PARTNER_SEARCH_DEBOUNCE_MS);
          }}
          onKeyDown={(event) => {
            if (event.key === "Enter") searchNow(event);
          }}
        />
        <button
          type="submit"
          name="intent"
          value={PARTNER_SEARCH_INTENT}
          formNoValidate
          formMethod={searchMethod === "get" ? "get" : undefined}
          className="button button--secondary"
          onClick={searchNow}
        >
          {t("partners.picker.searchButton")}
        </button>
      </div>
      <p className="partner-picker__status" role="status">
        {searchStatusMessage(search, t)}
      </p>
      <div
        onChange={(event) => {
          const input = event.target as HTMLInputElement;
          if (input.name === field.name) setChosen(listed.find((p) => p.id === input.value) ?? null);
        }}
      >
        <Radios
          // Conform's metadata reads through getters: copied field by field, never spread.
          field={{
            id: field.id,
            name: field.name,
            errorId: field.errorId,
            errors: field.errors,
            key: field.key,
            required: field.required,
            initialValue: chosen?.id,
          }}
          legend={t("partners.picker.resultsLabel")}
          options={partnerChoices(listed, t)}
          required
        />
      </div>
      <p className="partner-picker__suggest">
        {t("partners.picker.notListed")} <Link to={suggestHref}>{t("partners.picker.suggestLink")}</Link>
      </p>
    </fieldset>
  );
}
