import { data, Form } from "react-router";
import { z } from "zod";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/partner-access";
import { DocumentTitle } from "~/components/DocumentTitle";
import { PublicShell } from "~/components/PublicShell";
import { intents } from "~/routes/+shared/intents";
import { intentOf } from "~/routes/+shared/intents.server";
import { parseForm } from "~/routes/+shared/forms.server";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { sandboxPlatform } from "./sandbox.server";
import { setSandboxAccessByEmail } from "~/.server/providers/partner-links/sandbox";

const INTENT = intents("revokeKlaro", "grantKlaro");
const PAGE = "/dev/partners" as const;
const schema = z.object({ email: z.string().trim().max(254).default("") });

/**
 * Sandbox only (like /dev/expense-requests): the sandbox Klaro's answer for an account — `has_access`
 * true (the default) or false — so the demo and the journeys can see the integrations page's
 * "no access" message.
 */
export async function loader() {
  await sandboxPlatform();
  return data(null, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request }: Route.ActionArgs) {
  const { db } = await sandboxPlatform();
  const form = await request.formData();
  const intent = intentOf(form, INTENT);
  const submission = parseForm(form, schema);
  const email = submission.status === "success" ? submission.value.email : "";
  const found = email !== "" && (await setSandboxAccessByEmail(db, email, "klaro", intent === INTENT.grantKlaro));
  if (!found) return redirectWithFlash(request, PAGE, { kind: "error", message: "integrations.sandbox.unknownEmail" });
  return redirectWithFlash(request, PAGE, {
    kind: "success",
    message: intent === INTENT.grantKlaro ? "integrations.sandbox.granted" : "integrations.sandbox.revoked",
  });
}

export default function SandboxPartnerAccess() {
  const { t } = useTranslation();
  return (
    <PublicShell>
      <DocumentTitle page={t("integrations.sandbox.title")} />
      <h1>{t("integrations.sandbox.title")}</h1>
      <p>{t("integrations.sandbox.intro")}</p>
      <Form method="post">
        <div className="field">
          <label htmlFor="partner-access-email">{t("integrations.sandbox.email")}</label>
          <input id="partner-access-email" name="email" type="email" autoComplete="off" required maxLength={254} />
        </div>
        <div className="actions">
          <button type="submit" name="intent" value={INTENT.revokeKlaro} className="button button--danger">
            {t("integrations.sandbox.revoke")}
          </button>
          <button type="submit" name="intent" value={INTENT.grantKlaro} className="button button--secondary">
            {t("integrations.sandbox.grant")}
          </button>
        </div>
      </Form>
    </PublicShell>
  );
}
