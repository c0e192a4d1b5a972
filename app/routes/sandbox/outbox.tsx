import { useTranslation } from "~/i18n";
import { data } from "react-router";
import type { Route } from "./+types/outbox";
import { DocumentTitle } from "~/components/DocumentTitle";
import { PublicShell } from "~/components/PublicShell";
import { formatDateTime } from "~/domain/dates";
import { getPlatform } from "~/.server/platform";
import { listOutbox } from "~/.server/providers/messaging/sandbox";

/** Sandbox only: every e-mail and SMS the platform sent, newest first (DEMO.md). */
export async function loader() {
  const { env, db } = await getPlatform();
  if (!env.sandbox) throw data(null, { status: 404 });
  const messages = await listOutbox(db, 100);
  return data({ messages }, { headers: { "Cache-Control": "no-store" } });
}

export default function Outbox({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <PublicShell>
      <DocumentTitle page={t("outbox.title")} />
      <h1>{t("outbox.title")}</h1>
      <p>{t("outbox.intro")}</p>
      {loaderData.messages.length === 0 ? (
        <p>{t("outbox.empty")}</p>
      ) : (
        <ol className="outbox">
          {loaderData.messages.map((m) => (
            <li key={m.id} className="outbox__message">
              <h2 className="outbox__subject">{m.subject}</h2>
              <dl className="outbox__meta">
                <dt>{t("outbox.to")}</dt>
                <dd className="outbox__recipient">{m.recipient}</dd>
                <dt>{t("outbox.channel")}</dt>
                <dd>{t(m.channel === "sms" ? "outbox.sms" : "outbox.email")}</dd>
                <dt>{t("outbox.sentAt")}</dt>
                <dd>
                  <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
                </dd>
              </dl>
              <pre className="outbox__body">{m.body}</pre>
            </li>
          ))}
        </ol>
      )}
    </PublicShell>
  );
}
