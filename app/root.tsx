import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import { useEffect } from "react";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/root";
import { useFocusHeadingOnNavigation } from "./components/useFocusHeadingOnNavigation";
import { useAppLinkNavigation } from "./components/AppLink";
import { PageLoader } from "./components/PageLoader";
import { StatusBanner } from "./components/StatusBanner";
import { MobileAppBanner } from "./components/MobileAppBanner";
import { ConsentBanner } from "./components/ConsentBanner";
import { TagManagerSnippet, useTagEvents } from "./components/TagManager";
import { NotFoundPage, RefusedPage, ServerErrorPage } from "./components/ErrorPages";
import { refuseUnreadableForms } from "./middleware/forms";
import { i18nMiddleware } from "./i18n/i18next.server";
import { getPlatform } from "./.server/platform";
import { browserErrorReporting } from "./.server/error-reporting";
import { tagManagerFor } from "./.server/services/tag-events";
import { currentUserId } from "~/routes/+shared/auth.server";
import { commitSession, getSession, nonceOf } from "~/routes/+shared/request.server";
import { lightVersionFor } from "~/routes/+shared/light-version.server";
import { consentAsked } from "~/routes/+shared/consent.server";
import { SECRET_PARAM } from "~/.server/logger";
import { mobilePlatformOf } from "./domain/userAgent";
import stylesheet from "./styles/app.css?url";
import { conformityOf } from "~/content/accessibility-record";

export const links: Route.LinksFunction = () => [
  // `precedence` makes it a stylesheet resource for React, sent before the scripts it preloads:
  // the one render-blocking file is asked for first (decision 0039).
  { rel: "stylesheet", href: stylesheet, precedence: "default" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

// The language first: refusals and error pages are in it too.
export const middleware: Route.MiddlewareFunction[] = [i18nMiddleware, refuseUnreadableForms];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, db } = await getPlatform();
  const headers = new Headers();
  let flash = null;
  if (request.headers.get("Cookie")) {
    const session = await getSession(request);
    flash = session.get("flash") ?? null;
    if (flash) headers.append("Set-Cookie", await commitSession(session));
  }
  // The light version (decision 0040): no script at all, so neither the tag manager nor Sentry.
  const light = lightVersionFor(request, context);
  const userId = await currentUserId(request);
  // The tag manager in the browser (decision 0031): only with its id and this person's consent.
  const tagManager = light ? null : await tagManagerFor(db, env.TAG_MANAGER_ID, userId);
  return data(
    {
      light,
      productName: env.PRODUCT_NAME,
      nonce: nonceOf(context),
      sandbox: env.sandbox,
      // Sentry in the browser when SENTRY_DSN is set (loaded after hydration, only then).
      errorReporting: light ? null : browserErrorReporting(env),
      banner: env.STATUS_BANNER_TEXT ? { text: env.STATUS_BANNER_TEXT, color: env.STATUS_BANNER_COLOR } : null,
      mobileApp: mobilePlatformOf(request.headers.get("User-Agent")),
      stores: { appStore: env.APP_STORE_URL, playStore: env.PLAY_STORE_URL },
      // The footer's « Accessibilité : … conforme », as the accessibility record says (decision 0068).
      accessibility: conformityOf().level,
      flash: flash ? { kind: flash.kind, message: flash.message } : null,
      // The consent banner (decision 0059), in the light version too: it is a plain form. Not on a page
      // whose address carries a secret (a reset or activation link's token): its form would copy the
      // address into a field; the banner asks on the next page.
      consentBanner:
        !Object.keys(params).some((name) => SECRET_PARAM.test(name)) &&
        (await consentAsked(request, db, userId, context)),
      tagManager,
      // The tag manager's event the last action recorded, for the dataLayer (only with the tag manager).
      tagEvent: tagManager ? (flash?.tagEvent ?? null) : null,
      // Changes on every response so that two identical messages in a row are both shown.
      flashId: flash ? crypto.randomUUID() : null,
    },
    { headers },
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  // Hydration is done (the page or its error page): the browser journeys wait for this before they
  // click (tests/e2e/fixtures.ts).
  useEffect(() => {
    (window as { portalHydrated?: boolean }).portalHydrated = true;
  }, []);
  // Every AppLink's clicks, the page's or its error page's, are client navigations once hydrated (decision 0076).
  useAppLinkNavigation();
  const root = useRouteLoaderData<typeof loader>("root");
  const errorReporting = root?.errorReporting;
  useEffect(() => {
    if (!errorReporting) return;
    void import("./client-error-reporting").then((m) => m.initBrowserErrorReporting(errorReporting));
  }, [errorReporting]);
  const nonce = root?.nonce;
  // The light version is the page a browser without JavaScript gets: no script element of any kind.
  const light = Boolean(root?.light);
  // The language the server rendered in; the browser fetches this language's catalogue to hydrate.
  const { i18n } = useTranslation();
  return (
    <html lang={i18n.language} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <Meta />
        <Links />
        {root?.tagManager ? <TagManagerSnippet nonce={nonce} scriptUrl={root.tagManager.scriptUrl} /> : null}
      </head>
      <body>
        {/* First in the page, before the skip link, as GOV.UK's cookie banner. */}
        {root?.consentBanner ? <ConsentBanner /> : null}
        {root?.banner ? <StatusBanner text={root.banner.text} color={root.banner.color} nonce={nonce} /> : null}
        {root?.mobileApp ? (
          <MobileAppBanner
            platform={root.mobileApp}
            product={root.productName}
            href={root.mobileApp === "ios" ? root.stores.appStore : root.stores.playStore}
          />
        ) : null}
        {children}
        {light ? null : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  useFocusHeadingOnNavigation();
  const root = useRouteLoaderData<typeof loader>("root");
  useTagEvents(Boolean(root?.tagManager), root?.tagEvent ?? null, root?.flashId ?? null);
  return (
    <>
      <PageLoader />
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  // A refusal (`refusal` in routes/+shared/request.server.ts) says why in its own words.
  const refused =
    isRouteErrorResponse(error) && error.status < 500
      ? (error.data as { message?: unknown } | null)?.message
      : undefined;
  if (typeof refused === "string") return <RefusedPage message={refused} />;
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  // Requests the portal's own pages never send: a French page that says so, not "an error occurred".
  if (isRouteErrorResponse(error) && error.status === 400)
    return <ServerErrorPage title={t("badRequest.title")} text={t("badRequest.text")} />;
  if (isRouteErrorResponse(error) && (error.status === 405 || error.status === 415)) {
    return <ServerErrorPage title={t("methodNotAllowed.title")} text={t("methodNotAllowed.text")} />;
  }
  return <ServerErrorPage title={t("serverError.title")} />;
}
