import { lazy } from "react";
import { Form, Link } from "react-router";
import { useTranslation } from "~/i18n";
import { INTENT_FIELD } from "~/routes/+shared/intents";
import { CLOSE_INTENT, type AllowanceFlow, type AllowanceReply, type FrameView } from "./wizard";

/**
 * The allowance wizards' frame inside its panel (routes/allowances/wizard.tsx): the type choice, the
 * notice for a type not allowed, an allowance already asked for (read-only), the close confirmation, and
 * the steps of the draft's flow (DistanceSteps for carpooling and bicycle, SubscriptionSteps).
 *
 * Each flow's steps, and the read-only panel, are a file of their own (decision 0080): the page loads the one
 * it shows, with the forms' code when it has forms. The server renders it whole inside the route's Suspense
 * (entry.server.tsx writes finished boundaries in place), so the page is the same without JavaScript; with
 * it, the file the server's HTML names (`data-wizard-part`) is asked for as soon as this module runs, before
 * hydration, and the part hydrates with the page when it has come (a file gone after a deploy reloads the
 * page, decision 0066).
 */
/** Each part's file, by the name its HTML gives itself (`data-wizard-part`). */
const PARTS = {
  distance: () => import("./DistanceSteps"),
  subscription: () => import("./SubscriptionSteps"),
  allowance: () => import("./AllowanceReadOnly"),
};
const Distance = lazy(() => PARTS.distance().then(({ DistanceSteps }) => ({ default: DistanceSteps })));
const Subscription = lazy(() => PARTS.subscription().then(({ SubscriptionSteps }) => ({ default: SubscriptionSteps })));
const ReadOnly = lazy(() => PARTS.allowance().then(({ ReadOnly }) => ({ default: ReadOnly })));

/*
 * Before hydration (the page's scripts run once the server's HTML is in the document): the file of the part the
 * server rendered is asked for at once, beside the catalogue's request, rather than when hydration reaches the
 * part. Nothing on the server, nor when this module comes with a navigation (the part is not in the page yet).
 */
if (typeof document !== "undefined")
  for (const element of document.querySelectorAll<HTMLElement>("[data-wizard-part]"))
    PARTS[element.dataset.wizardPart as keyof typeof PARTS]?.().catch(() => undefined);

/** True when the page shows errors (its title then starts with "Erreur : "). */
export function allowanceWizardInvalid(actionData: AllowanceReply | undefined): boolean {
  const error = actionData?.lastResult.error;
  return Boolean(error && Object.values(error).some((e) => e?.length));
}

/** The refused step's answer, for the step shown of this flow only (an answer for another, an old tab's, is not). */
function replyFor(actionData: AllowanceReply | undefined, flow: AllowanceFlow, step: string) {
  return actionData?.flow === flow && actionData.step === step ? actionData.lastResult : undefined;
}

/** The panel's title for this view. */
export function allowanceWizardTitle(view: FrameView, t: (key: string) => string): string {
  switch (view.kind) {
    case "distance":
      return t(`allowanceWizard.titles.${view.type}`);
    case "subscription":
      return t("allowanceWizard.titles.subscription");
    case "confirmClose":
      return t(`allowanceWizard.titles.${view.type}`);
    case "allowance":
      return t("allowanceWizard.titles.allowance");
    default:
      return t("allowanceWizard.titles.new");
  }
}

export function AllowanceWizard({ view, actionData }: { view: FrameView; actionData: AllowanceReply | undefined }) {
  switch (view.kind) {
    case "choose":
      return <TypeChoice view={view} />;
    case "notAllowed":
      return <NotAllowed closeTo={view.closeTo} />;
    case "allowance":
      return <ReadOnly allowance={view.allowance} />;
    case "confirmClose":
      return <CloseConfirmation view={view} />;
    case "distance":
      return <Distance wizard={view} lastResult={replyFor(actionData, view.kind, view.step)} />;
    case "subscription":
      return <Subscription wizard={view} lastResult={replyFor(actionData, view.kind, view.step)} />;
  }
}

function TypeChoice({ view }: { view: Extract<FrameView, { kind: "choose" }> }) {
  const { t } = useTranslation();
  if (view.types.length === 0) return <NotAllowed closeTo={view.closeTo} />;
  return (
    <>
      <p>{t("allowanceWizard.choose.intro")}</p>
      <ul className="choice-links">
        {view.types.map(({ type, href }) => (
          <li key={type}>
            <Link to={href} preventScrollReset>
              {t(`allowances.types.${type}`)}
            </Link>
            <p className="hint">{t(`allowanceWizard.choose.hints.${type}`)}</p>
          </li>
        ))}
      </ul>
      <div className="actions">
        <Link to={view.closeTo} className="link-action" preventScrollReset>
          {t("allowanceWizard.cancel")}
        </Link>
      </div>
    </>
  );
}

function NotAllowed({ closeTo }: { closeTo: string }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="alert alert--warning" role="status">
        <p>{t("allowanceWizard.notAllowed")}</p>
      </div>
      <div className="actions">
        <Link to={closeTo} className="link-action" preventScrollReset>
          {t("allowanceWizard.cancel")}
        </Link>
      </div>
    </>
  );
}

/** Closing once something would be lost: said first, in the panel (a page of its own without JS). */
function CloseConfirmation({ view }: { view: Extract<FrameView, { kind: "confirmClose" }> }) {
  const { t } = useTranslation();
  return (
    <div className="refund-wizard">
      <h3 id="allowance-wizard-step">{t("allowanceWizard.close.title")}</h3>
      <p>{t("allowanceWizard.close.text")}</p>
      <Form method="post" action={view.here} className="actions" preventScrollReset>
        <button type="submit" name={INTENT_FIELD} value={CLOSE_INTENT.discard} className="button">
          {t("allowanceWizard.close.confirm")}
        </button>
        <Link to={view.resume} className="link-action" preventScrollReset>
          {t("allowanceWizard.close.resume")}
        </Link>
      </Form>
    </div>
  );
}
