import { useTranslation } from "~/i18n";
import { DocumentTitle } from "./DocumentTitle";
import { PublicShell } from "./PublicShell";

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <PublicShell>
      <DocumentTitle page={t("notFound.title")} />
      <h1>{t("notFound.title")}</h1>
      <p>{t("notFound.text")}</p>
      <p>
        <a href="/" className="link-action">{t("notFound.back")}</a>
      </p>
    </PublicShell>
  );
}

export function ServerErrorPage({ title, text }: { title: string; text?: string }) {
  const { t } = useTranslation();
  return (
    <PublicShell>
      <DocumentTitle page={title} />
      <h1>{title}</h1>
      <p>{text ?? t("serverError.text")}</p>
      <p>
        <a href="/" className="link-action">{t("serverError.back")}</a>
      </p>
    </PublicShell>
  );
}
