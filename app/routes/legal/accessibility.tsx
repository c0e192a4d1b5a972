import { useTranslation } from "~/i18n";
import { useRouteLoaderData } from "react-router";
import type { Route } from "./+types/accessibility";
import type { loader as rootLoader } from "~/root";
import { PublicPage } from "~/components/PublicShell";
import { formatDate } from "~/domain/dates";
import { accessibilityRecord, conformityOf, type Localized } from "~/content/accessibility-record";
import { getPlatform } from "~/.server/platform";
import { getLocale } from "~/i18n/i18next.server";

/** The Défenseur des droits' online form and its map of local delegates (the model statement's recourse). */
const DEFENSEUR_FORM = "https://formulaire.defenseurdesdroits.fr/";
const DEFENSEUR_DELEGATES = "https://www.defenseurdesdroits.fr/carte-des-delegues";

/**
 * The accessibility statement (RGAA, decision 0068) at /accessibilite, in the French model statement's format:
 * conformity state, test results, non-accessible content, how the statement was made, contact, recourse. Every
 * fact comes from the accessibility record (app/content/accessibility-record.ts), in the page's language, so
 * the statement says what the hand review found and nothing else.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { env } = await getPlatform();
  const locale = getLocale(context);
  const say = (text: Localized) => text[locale];
  const record = accessibilityRecord;
  return {
    support: env.SUPPORT_URL,
    conformity: conformityOf(record),
    auditDate: record.auditDate,
    auditor: say(record.auditor),
    nonConformities: record.criteria.flatMap((c) =>
      c.verdict === "NC" ? [{ id: c.id, standard: c.standard, text: say(c.publicText) }] : [],
    ),
    derogations: record.derogations.map(say),
    outOfScope: record.outOfScope.map(say),
    technologies: record.technologies,
    environment: record.environment.map(say),
    tools: record.tools.map(say),
    sample: record.sample.map((p) => ({ name: say(p.name), url: p.url })),
  };
}

export default function Accessibility({ loaderData: data }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const product = useRouteLoaderData<typeof rootLoader>("root")?.productName ?? "";
  const { conformity } = data;
  return (
    <PublicPage title={t("legal.accessibility.title")}>
      <div className="statement">
        <p>{t("legal.accessibility.intro", { product })}</p>
        <Section name="status">
          <p>{t(STATUS[conformity.level], { product })}</p>
        </Section>
        <Section name="results">
          <p>
            {t("legal.accessibility.results", {
              auditor: data.auditor,
              rate: rateText(conformity.rate, i18n.language),
            })}
          </p>
          <ul className="legal__list">
            <li>
              {t("legal.accessibility.counts", {
                conform: conformity.conform,
                notConform: conformity.notConform,
                notApplicable: conformity.notApplicable,
              })}
            </li>
            <li>
              {t("legal.accessibility.scope", { rgaa: conformity.rgaaReviewed, wcag: conformity.wcag22Reviewed })}
            </li>
          </ul>
        </Section>
        <NonAccessible data={data} />
        <Section name="method">
          <p>{t("legal.accessibility.date", { date: formatDate(`${data.auditDate}T12:00:00Z`) })}</p>
          <Listed title={t("legal.accessibility.technologies")} items={data.technologies} />
          <Listed title={t("legal.accessibility.environment")} items={data.environment} />
          <Listed title={t("legal.accessibility.tools")} items={data.tools} />
          <Listed
            title={t("legal.accessibility.sample")}
            items={data.sample.map((p) => (
              <>
                {p.name} (<code>{p.url}</code>)
              </>
            ))}
          />
        </Section>
        <Section name="contact">
          <p>{t("legal.accessibility.contact")}</p>
          <p>
            <a href={data.support}>{t("legal.accessibility.contactLink")}</a>
          </p>
        </Section>
        <Recourse />
      </div>
    </PublicPage>
  );
}

const STATUS = {
  total: "legal.accessibility.statusTotal",
  partial: "legal.accessibility.statusPartial",
  none: "legal.accessibility.statusNone",
} as const;

/** « 100 », « 93,3 »: the rate as the page's language writes it (the same on the server and in the browser). */
function rateText(rate: number, language: string) {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(rate);
}

function Section({ name, children }: { name: string; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby={`accessibility-${name}`}>
      <h2 id={`accessibility-${name}`}>{t(`legal.accessibility.${name}Title`)}</h2>
      {children}
    </section>
  );
}

/** A titled list of the statement (a small heading, then the items). */
function Listed({ title, items }: { title: string; items: React.ReactNode[] }) {
  return (
    <>
      <h3>{title}</h3>
      <ul className="legal__list">
        {items.map((item, i) => (
          <li key={i}>{item}</li>
        ))}
      </ul>
    </>
  );
}

/** The model's three kinds of non-accessible content; « none » said in words when a kind is empty. */
function NonAccessible({ data }: { data: Route.ComponentProps["loaderData"] }) {
  const { t } = useTranslation();
  const orNone = (items: React.ReactNode[]) => (items.length > 0 ? items : [t("legal.accessibility.none")]);
  return (
    <Section name="issues">
      <Listed
        title={t("legal.accessibility.nonConformities")}
        items={orNone(data.nonConformities.map((n) => t("legal.accessibility.nonConformity", n)))}
      />
      <Listed title={t("legal.accessibility.derogations")} items={orNone(data.derogations)} />
      <Listed title={t("legal.accessibility.outOfScope")} items={orNone(data.outOfScope)} />
    </Section>
  );
}

/** The recourse as the model statement words it: the Défenseur des droits by form, delegate, post or phone. */
function Recourse() {
  const { t } = useTranslation();
  return (
    <Section name="recourse">
      <p>{t("legal.accessibility.recourse")}</p>
      <ul className="legal__list">
        <li>
          <a href={DEFENSEUR_FORM}>{t("legal.accessibility.recourseForm")}</a>
        </li>
        <li>
          <a href={DEFENSEUR_DELEGATES}>{t("legal.accessibility.recourseDelegate")}</a>
        </li>
        <li>{t("legal.accessibility.recoursePhone")}</li>
        <li>
          {t("legal.accessibility.recoursePost")}
          {/* A French postal address, read in French whatever the page's language (RGAA 8.7). */}
          <address lang="fr">
            Défenseur des droits
            <br />
            Libre réponse 71120
            <br />
            75342 Paris CEDEX 07
          </address>
        </li>
      </ul>
    </Section>
  );
}
