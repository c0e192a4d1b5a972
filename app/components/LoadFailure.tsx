import { isRouteErrorResponse, useLocation, useRouteError } from "react-router";
import { AppLink } from "./AppLink";
import { useTranslation } from "~/i18n";
import { PageHeader } from "./PageHeader";

/**
 * The error boundary of a page inside the signed-in shell (the card page, the wallets pages): the shell
 * and its navigation stay, and the page's place says what failed. A loader names the failure with
 * `failedTo` (routes/+shared/load-failure.server.ts); refusals and other 4xx answers keep the words of
 * the root's error pages, now inside the shell.
 */
export function LoadFailure({ title }: { title: string }) {
  const error = useRouteError();
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const body = isRouteErrorResponse(error) ? (error.data as { message?: unknown; failed?: unknown } | null) : null;
  if (isRouteErrorResponse(error) && error.status < 500) {
    const refused = typeof body?.message === "string" ? body.message : null;
    const [heading, text] = refused
      ? [t("refused.title"), t(refused)]
      : error.status === 404
        ? [t("notFound.title"), t("notFound.text")]
        : error.status === 405 || error.status === 415
          ? [t("methodNotAllowed.title"), t("methodNotAllowed.text")]
          : [t("badRequest.title"), t("badRequest.text")];
    return (
      <>
        <PageHeader title={heading} />
        <p>{text}</p>
        <p>
          <AppLink to="/cards" className="link-action">
            {t("refused.back")}
          </AppLink>
        </p>
      </>
    );
  }
  const failed = typeof body?.failed === "string" ? body.failed : null;
  return (
    <>
      <PageHeader title={title} error />
      <div className="alert alert--error" role="alert">
        <p>{failed ? t(failed) : t("serverError.text")}</p>
      </div>
      <p>
        {/* The same page asked again: a link, with or without JavaScript. */}
        <AppLink to={`${pathname}${search}`} className="button button--secondary">
          {t("app.retry")}
        </AppLink>
      </p>
    </>
  );
}
