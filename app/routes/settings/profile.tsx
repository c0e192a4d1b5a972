import { getFormProps, useForm } from "@conform-to/react";
import { Form, href, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/profile";
import {
  choiceTarget,
  ErrorSummary,
  Field,
  Radios,
  RequiredNote,
  TermsField,
  type ChoiceOption,
} from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { internationalPhone } from "~/domain/countries";
import { lightVersionSchema, profileSchema, type LightVersionForm, type ProfileForm } from "~/domain/schemas";
import { saveDataRequested } from "~/domain/light-version";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { intents } from "~/routes/+shared/intents";
import { intentOf } from "~/routes/+shared/intents.server";
import { accountContext } from "~/routes/+shared/auth.server";
import { pendingChangeMessagesFor } from "~/routes/+shared/pending-change-step.server";
import { getPlatform } from "~/.server/platform";
import { redirectWithFlash } from "~/routes/+shared/request.server";
import { codeSentFlash } from "~/routes/+shared/code-sent.server";
import {
  cancelPendingChange,
  getProfileSettings,
  isContactField,
  saveLightVersion,
  updateProfile,
  type ContactField,
} from "~/.server/services/profile";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";

/**
 * Profile settings (spec 001 §2.4, §5 "Profile save"): names read-only (support changes them), e-mail
 * and phone editable, each change confirmed by a code sent to the new address or number; terms can be
 * accepted once. A save that changes nothing is refused. Below, the display: the light version
 * (issue 18 §3, decision 0040).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const profile = await getProfileSettings(db, account.id);
  if (!profile) throw internalRedirect("/login");
  return {
    profile,
    lightVersion: {
      chosen: account.lightVersion,
      // The browser asks for it whatever the setting: said beside the setting.
      saveData: saveDataRequested(request.headers.get("Save-Data")),
    },
  };
}

/** Save the contact details, cancel a pending change of one of them, or save the display. */
const INTENT = intents("save", "cancel", "display");

export async function action({ request, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  const { db, messenger } = await getPlatform();
  const form = await request.formData();

  switch (intentOf(form, INTENT)) {
    case INTENT.display: {
      const submission = parseForm(form, lightVersionSchema);
      if (submission.status !== "success") return refuse(submission);
      const on = submission.value.lightVersion === "on";
      await saveLightVersion(db, account.id, on);
      // A new document even with JavaScript: the page's scripts go (or come back) with the choice.
      return redirectWithFlash(
        request,
        "/settings/profile",
        { kind: "success", message: on ? "settings.display.savedOn" : "settings.display.savedOff" },
        { reloadDocument: true },
      );
    }
    case INTENT.cancel: {
      const field = form.get("field");
      if (isContactField(field)) await cancelPendingChange(db, account.id, field);
      return redirectWithFlash(request, "/settings/profile", {
        kind: "success",
        message: "settings.pendingChange.cancelled",
      });
    }
    case INTENT.save: {
      const submission = parseForm(form, profileSchema);
      if (submission.status !== "success") return refuse(submission);
      const { email, phone, phoneCountry, terms } = submission.value;
      const result = await updateProfile(
        db,
        messenger,
        account.id,
        {
          email,
          phone: phone === undefined ? undefined : internationalPhone(phoneCountry, phone),
          acceptTerms: terms === "on",
        },
        await pendingChangeMessagesFor(context),
      );
      switch (result.kind) {
        case "unchanged":
          return refuse(submission, { formErrors: ["settings.profile.unchanged"] });
        case "emailTaken":
          return refuse(submission, { fieldErrors: { email: ["errors.emailTaken"] } });
        case "saved": {
          // A change waiting for its code opens its confirmation at once (spec 001 §4 pending-change modal).
          const [firstPending] = result.pendingFields;
          if (firstPending)
            return redirectWithFlash(
              request,
              internalPath("/settings/profile/confirm/:field", { field: firstPending }),
              codeSentFlash(result, "settings.profile.savedPending")!,
            );
          return redirectWithFlash(request, "/settings/profile", {
            kind: "success",
            message: "settings.profile.saved",
          });
        }
      }
    }
  }
}

function PendingValue({ field, value }: { field: ContactField; value: string }) {
  const { t } = useTranslation();
  return (
    <div className="pending-change" id={`profile-${field}`}>
      <p className="pending-change__label">
        {t(field === "email" ? "settings.profile.email" : "settings.profile.phone")}
      </p>
      <p className="alert alert--info">
        {t("settings.pendingChange.inProgress")}{" "}
        {t(field === "email" ? "settings.pendingChange.newEmail" : "settings.pendingChange.newPhone")} :{" "}
        <strong>{value}</strong>
      </p>
      <div className="actions">
        <Link to={href("/settings/profile/confirm/:field", { field })} className="button">
          {t(field === "email" ? "settings.profile.confirmEmail" : "settings.profile.confirmPhone")}
        </Link>
        <Form method="post">
          <input type="hidden" name="field" value={field} />
          <button type="submit" name="intent" value={INTENT.cancel} className="button button--secondary">
            {t(field === "email" ? "settings.profile.cancelEmail" : "settings.profile.cancelPhone")}
          </button>
        </Form>
      </div>
    </div>
  );
}

/**
 * The display's form (decision 0040): the light version on or off. Its own form on the page; a refusal
 * comes back to it only (the reply's intent says which form was sent).
 */
function LightVersionSetting({
  setting,
  form,
  field,
  options,
}: {
  setting: { chosen: boolean; saveData: boolean };
  form: ReturnType<typeof useForm<LightVersionForm>>[0];
  field: ReturnType<typeof useForm<LightVersionForm>>[1]["lightVersion"];
  options: ChoiceOption[];
}) {
  const { t } = useTranslation();
  return (
    <section className="settings-card" aria-labelledby="light-version">
      <h2 id="light-version">{t("settings.display.title")}</h2>
      {setting.saveData ? <p className="alert alert--info">{t("settings.display.saveDataActive")}</p> : null}
      <Form method="post" {...getFormProps(form)} noValidate>
        <Radios
          required
          field={field}
          legend={t("settings.display.legend")}
          hint={t("settings.display.hint")}
          options={options}
        />
        <div className="actions">
          <button type="submit" name="intent" value={INTENT.display} className="button">
            {t("settings.display.save")}
          </button>
        </div>
      </Form>
    </section>
  );
}

export default function ProfileSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { profile, lightVersion } = loaderData;
  // Two forms, one action: each shows only the reply to its own intent.
  const displayReply = actionData?.initialValue?.intent === INTENT.display ? actionData : undefined;
  const [displayForm, displayFields] = useForm<LightVersionForm>({
    id: "display",
    lastResult: displayReply,
    defaultValue: { lightVersion: lightVersion.chosen ? "on" : "off" },
  });
  const displayOptions = (["on", "off"] as const).map((value) => ({ value, label: t(`settings.display.${value}`) }));
  const [form, fields] = useForm<ProfileForm>({
    id: "profile",
    lastResult: displayReply ? undefined : actionData,
    defaultValue: {
      email: profile.email,
      phone: profile.phone ?? "",
      terms: profile.termsConfirmed ? "on" : undefined,
    },
  });
  return (
    <div>
      <PageHeader title={t("settings.profile.title")} error={!form.valid || !displayForm.valid} />
      {/* "Nothing changed" is about the whole form: its link goes to the e-mail (its field, or its pending change). */}
      <ErrorSummary form={form} fields={[fields.email, fields.phone]} />
      <ErrorSummary
        form={displayForm}
        fields={[
          { field: displayFields.lightVersion, target: choiceTarget(displayFields.lightVersion, displayOptions) },
        ]}
      />
      <p>{t("settings.profile.connectedAs", { email: profile.email })}</p>

      <section className="settings-card" aria-labelledby="profile-identity">
        <h2 id="profile-identity">{t("settings.profile.identity")}</h2>
        <dl className="summary-list summary-list--flat" aria-labelledby="profile-identity">
          <div>
            <dt>{t("settings.profile.lastName")}</dt>
            <dd>{profile.lastName ?? t("settings.profile.notSet")}</dd>
          </div>
          <div>
            <dt>{t("settings.profile.firstName")}</dt>
            <dd>{profile.firstName ?? t("settings.profile.notSet")}</dd>
          </div>
        </dl>
        <p className="hint">{t("settings.profile.namesNotice")}</p>
      </section>

      <section className="settings-card" aria-labelledby="profile-contact">
        <h2 id="profile-contact">{t("settings.profile.contact")}</h2>
        {profile.pending.email ? <PendingValue field="email" value={profile.pending.email} /> : null}
        {profile.pending.phone ? <PendingValue field="phone" value={profile.pending.phone} /> : null}
        <Form method="post" {...getFormProps(form)} noValidate>
          <RequiredNote />
          {profile.pending.email ? null : (
            <Field
              required
              field={fields.email}
              type="email"
              label={t("settings.profile.email")}
              hint={t("settings.profile.emailHint")}
              autoComplete="email"
              spellCheck={false}
              maxLength={254}
            />
          )}
          {profile.pending.phone ? null : (
            <Field
              required
              field={fields.phone}
              type="tel"
              label={t("settings.profile.phone")}
              hint={t("settings.profile.phoneHint")}
              autoComplete="tel"
              maxLength={25}
            />
          )}
          <TermsField field={fields.terms} locked={profile.termsConfirmed} />
          <div className="actions">
            <button type="submit" name="intent" value={INTENT.save} className="button">
              {t("settings.profile.save")}
            </button>
          </div>
        </Form>
      </section>

      <LightVersionSetting
        setting={lightVersion}
        form={displayForm}
        field={displayFields.lightVersion}
        options={displayOptions}
      />
    </div>
  );
}
