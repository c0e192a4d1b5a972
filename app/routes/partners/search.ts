import type { Route } from "./+types/search";
import { getLocale } from "~/i18n/i18next.server";
import { getPlatform } from "~/.server/platform";
import { searchPartners } from "~/.server/services/partners";
import type { PartnerOption } from "~/domain/partners";

/** What `/plans/partners?q=&limit=` answers (JSON): the query as read, and the partners found. */
export interface PartnerSearchAnswer {
  query: string;
  partners: PartnerOption[];
}

/**
 * The partner search of the refund wizard's details step (spec 001 §2.6, §7 "List partners"), as JSON
 * for the PartnerPicker's enhancement: signed-in people only (the shell's middleware sends others to the
 * sign-in), France only, 10 results or 15 (`limit`), nothing for an empty query. Without JavaScript the
 * page holding the picker searches itself, from its own `?partnerSearch=`.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = (url.searchParams.get("q") ?? "").slice(0, 100);
  const { db } = await getPlatform();
  const partners = await searchPartners(db, query, {
    limit: Number(url.searchParams.get("limit") ?? 10),
    locale: getLocale(context),
  });
  const answer: PartnerSearchAnswer = { query, partners };
  return Response.json(answer, { headers: { "Cache-Control": "private, no-store" } });
}
