import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { expect, test } from "vitest";
import { TranslationProvider, translatorFor } from "~/i18n";
import type { FieldMeta } from "~/components/forms";
import type { PartnerOption } from "~/domain/partners";
import fr from "../../../locales/fr/translation.json";
import {
  listedPartners,
  PartnerPicker,
  partnerChoices,
  partnerSearchUrl,
  partnerSummaryField,
  readPartnerSearch,
  searchStatusMessage,
} from "./PartnerPicker";

const t = translatorFor(fr);
const partner = (id: string, name: string, extra: Partial<PartnerOption> = {}): PartnerOption => ({
  id,
  name,
  line1: "47 rue Paul Bert",
  zipcode: "69003",
  city: "Lyon",
  enabled: true,
  disabledReason: null,
  ...extra,
});
const pain = partner("ptn_pain", "Boulangerie Pain & Co");
const closed = partner("ptn_closed", "Boulangerie Zola", { enabled: false, disabledReason: "Établissement fermé." });
const old = partner("ptn_old", "Boulangerie Ancienne", { enabled: false });
const field = { id: "details-partnerId", name: "partnerId", errorId: "details-partnerId-error" };

/** Conform's field metadata answers through getters (a spread of it copies nothing): so does this one. */
function conformLike(values: FieldMeta): FieldMeta {
  const meta = {};
  for (const [key, value] of Object.entries(values)) Object.defineProperty(meta, key, { get: () => value });
  return meta as FieldMeta;
}

test("the search is read trimmed and cut; the JSON search's address encodes it", () => {
  expect(readPartnerSearch(new URLSearchParams({ partnerSearch: "  pain & co " }))).toBe("pain & co");
  expect(readPartnerSearch(new URLSearchParams())).toBe("");
  const form = new FormData();
  form.set("partnerSearch", "x".repeat(500));
  expect(readPartnerSearch(form)).toHaveLength(100);
  expect(partnerSearchUrl(" pain & co ", 15)).toBe("/plans/partners?q=pain+%26+co&limit=15");
});

test("the chosen partner stays listed, first, when a search does not find it", () => {
  expect(listedPartners([closed], pain).map((p) => p.id)).toEqual(["ptn_pain", "ptn_closed"]);
  expect(listedPartners([closed, pain], pain).map((p) => p.id)).toEqual(["ptn_closed", "ptn_pain"]);
  expect(listedPartners([closed], null).map((p) => p.id)).toEqual(["ptn_closed"]);
});

test("disabled partners cannot be chosen and say why, or a default message", () => {
  expect(partnerChoices([pain, closed, old], t)).toEqual([
    {
      value: "ptn_pain",
      label: "Boulangerie Pain & Co",
      hint: "47 rue Paul Bert, 69003 Lyon",
      hintUnavailable: false,
      disabled: false,
    },
    {
      value: "ptn_closed",
      label: "Boulangerie Zola",
      hint: "Établissement fermé.",
      hintUnavailable: true,
      disabled: true,
    },
    {
      value: "ptn_old",
      label: "Boulangerie Ancienne",
      hint: fr.partners.picker.disabledDefault,
      hintUnavailable: true,
      disabled: true,
    },
  ]);
});

test("the error summary links to the first partner that can be chosen, else the group", () => {
  expect(partnerSummaryField(field, [closed, pain])).toEqual({ field, target: "details-partnerId-ptn_pain" });
  expect(partnerSummaryField(field, [closed])).toEqual({ field, target: "details-partnerId" });
});

test("the live region counts the results for the search", () => {
  const say = (query: string, results: PartnerOption[], status: "done" | "searching" | "failed" = "done") =>
    searchStatusMessage({ query, results, status }, t);
  expect(say("", [])).toBe("Saisissez le nom de l’établissement pour le chercher.");
  expect(say("zzz", [])).toBe("Aucun établissement trouvé pour « zzz ». Vérifiez l’orthographe ou suggérez-le.");
  expect(say("pain", [pain])).toBe("1 établissement trouvé pour « pain »");
  expect(say("boulangerie", [pain, closed])).toBe("2 établissements trouvés pour « boulangerie »");
  expect(say("pain", [pain], "searching")).toBe("Recherche en cours…");
  expect(say("pain", [], "failed")).toBe("La recherche n’a pas pu aboutir. Réessayez dans quelques instants.");
});

test("rendered without JavaScript: search box and button, the results as radios, the chosen one checked, disabled ones not choosable", async () => {
  const node = (
    <form>
      <PartnerPicker
        field={conformLike({ ...field, initialValue: "ptn_pain", errors: ["partners.errors.required"] })}
        query="boulangerie"
        results={[closed]}
        selected={pain}
        suggestHref="/plans/suggest-establishment?back=%2Fplans"
      />
    </form>
  );
  const handler = createStaticHandler([{ path: "/", Component: () => node }]);
  const context = await handler.query(new Request("http://localhost/"));
  if (context instanceof Response) throw new Error("unexpected response");
  const html = renderToStaticMarkup(
    <TranslationProvider translate={t} locale="fr">
      <StaticRouterProvider
        router={createStaticRouter(handler.dataRoutes, context)}
        context={context}
        hydrate={false}
      />
    </TranslationProvider>,
  );
  /** The attributes of the first tag holding `marker` (attribute order is React's, not ours). */
  const attrs = (marker: string) => {
    const tag = html.match(new RegExp(`<[a-z]+[^>]*${marker}[^>]*>`))?.[0] ?? "";
    return Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  };
  expect(attrs('name="partnerSearch"')).toMatchObject({ type: "search", value: "boulangerie" });
  expect(attrs('value="searchPartner"')).toMatchObject({ type: "submit", name: "intent", formNoValidate: "" });
  expect(attrs('id="details-partnerId-ptn_pain"')).toMatchObject({ type: "radio", name: "partnerId", checked: "" });
  expect(attrs('id="details-partnerId-ptn_closed"')).toMatchObject({ type: "radio", disabled: "" });
  expect(attrs('id="details-partnerId-ptn_closed"')).not.toHaveProperty("checked");
  expect(html).toContain("Établissement fermé.");
  expect(html).toMatch(
    /<p class="partner-picker__status" role="status">1 établissement trouvé pour « boulangerie »<\/p>/,
  );
  expect(html).toContain(fr.partners.errors.required);
  expect(html).toContain('href="/plans/suggest-establishment?back=%2Fplans"');
});
