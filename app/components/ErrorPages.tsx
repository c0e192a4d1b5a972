import { Link } from "react-router";
import { useTranslation } from "~/i18n";
import { DocumentTitle } from "./DocumentTitle";
import { PageHeader } from "./PageHeader";
import { PublicShell } from "./PublicShell";

/** An error page: what happened, in words, and the way back home. */
function ErrorPage({ title, text, back }: { title: string; text: string; back: string }) {
  return (
    <PublicShell>
      <DocumentTitle page={title} />
      <h1>{title}</h1>
      <p>{text}</p>
      <p>
        <a href="/" className="link-action">
          {back}
        </a>
      </p>
    </PublicShell>
  );
}

/** The same 404 inside the signed-in shell: its header and navigation stay (issue 30 item 7). */
export function NotFoundContent() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("notFound.title")} />
      <p>{t("notFound.text")}</p>
      <p>
        <Link to="/cards" className="link-action">
          {t("notFound.back")}
        </Link>
      </p>
    </>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation();
  return <ErrorPage title={t("notFound.title")} text={t("notFound.text")} back={t("notFound.back")} />;
}

export function ServerErrorPage({ title, text }: { title: string; text?: string }) {
  const { t } = useTranslation();
  return <ErrorPage title={title} text={text ?? t("serverError.text")} back={t("serverError.back")} />;
}

/** A request refused on purpose (a 4xx thrown with `refusal`): the reason, a catalogue key. */
export function RefusedPage({ message }: { message: string }) {
  const { t } = useTranslation();
  return <ErrorPage title={t("refused.title")} text={t(message)} back={t("refused.back")} />;
}
