import { getFormProps } from "~/components/forms/useForm";
import { Form, href, Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { Route } from "./+types/profile";
import {
  choiceTarget,
  ErrorSummary,
  Field,
  Radios,
  RequiredNote,
  Select,
  TermsField,
  type ChoiceOption,
  useForm,
} from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { DEFAULT_COUNTRY, DELIVERY_COUNTRIES, internationalPhone } from "~/domain/countries";
import {
  deliveryAddressSchema,
  lightVersionSchema,
  profileSchema,
  type LightVersionForm,
  type ProfileForm,
} from "~/domain/schemas";
import { ibanMessage, maskIban, normaliseIban } from "~/domain/iban";
import { IBAN_FIELD, maskedIban } from "~/domain/payout-iban";
import { profileIbanSchema, type ProfileIbanForm } from "~/domain/payout-iban-schemas";
import { saveDataRequested } from "~/domain/light-version";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { intents } from "~/routes/+shared/intents";
import { intentOf } from "~/routes/+shared/intents.server";
import { accountContext } from "~/routes/+shared/auth.server";
import { ibanCodeMessageFor, pendingChangeMessagesFor } from "~/routes/+shared/pending-change-step.server";
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
import {
  cancelIbanChange,
  getPayoutDetails,
  pendingIban,
  requestIbanChange,
  savePostalAddress,
} from "~/.server/services/payout-details";
import { internalPath, internalRedirect } from "~/routes/+shared/redirects.server";

/**
 * Profile settings (spec 001 §2.4, §5 "Profile save"): names read-only (support changes them), e-mail
 * and phone editable, each change confirmed by a code sent to the new address or number; terms can be
 * accepted once. A save that changes nothing is refused. Then the bank details and the postal address
 * (issue 31 §1, decision 0054): the payout IBAN shown masked, changed only with a code sent to the
 * person's second factor; the address saved at once. Below, the display: the light version
 * (issue 18 §3, decision 0040).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db } = await getPlatform();
  const profile = await getProfileSettings(db, account.id);
  if (!profile) throw internalRedirect("/login");
  const [payout, waiting] = await Promise.all([getPayoutDetails(db, account.id), pendingIban(db, account.id)]);
  return {
    profile,
    // Never the whole IBAN: the page shows its first and last four characters.
    payout: {
      saved: payout.iban ? { masked: maskedIban(payout.iban), lastFour: maskIban(payout.iban) } : null,
      pending: waiting ? maskedIban(waiting) : null,
    },
    address: payout.address,
    lightVersion: {
      chosen: account.lightVersion,
      // The browser asks for it whatever the setting: said beside the setting.
      saveData: saveDataRequested(request.headers.get("Save-Data")),
    },
  };
}

/**
 * Save the contact details, cancel a pending change (e-mail, phone or IBAN), ask to change the IBAN, save the
 * postal address, or save the display.
 */
const INTENT = intents("save", "cancel", "display", "iban", "address");

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
      if (field === IBAN_FIELD) await cancelIbanChange(db, account.id);
      return redirectWithFlash(request, "/settings/profile", {
        kind: "success",
        message: "settings.pendingChange.cancelled",
      });
    }
    case INTENT.iban:
      return changeIban(request, context, account.id, form);
    case INTENT.address: {
      const submission = parseForm(form, deliveryAddressSchema);
      if (submission.status !== "success") return refuse(submission);
      await savePostalAddress(db, account.id, submission.value);
      return redirectWithFlash(request, "/settings/profile", {
        kind: "success",
        message: "settings.profile.address.saved",
      });
    }
    case INTENT.save: {
      // The fields the form sent: those without a change waiting for its code (an empty one is refused).
      const sent = { email: form.has("email"), phone: form.has("phone") };
      const submission = parseForm(form, profileSchema(sent));
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

/**
 * A new payout IBAN asked for (decision 0054): checked, then waiting for the code sent to the person's second
 * factor, whose page opens at once. The saved IBAN changes only there, with the right code.
 */
async function changeIban(request: Request, context: Route.ActionArgs["context"], userId: string, form: FormData) {
  const { db, messenger } = await getPlatform();
  const submission = parseForm(form, profileIbanSchema);
  if (submission.status !== "success") return refuse(submission);
  const typed = submission.value.iban;
  const message = ibanCodeMessageFor(context, normaliseIban(typed));
  const result = await requestIbanChange(db, messenger, userId, typed, message);
  const confirm = internalPath("/settings/profile/confirm/:field", { field: IBAN_FIELD });
  switch (result.kind) {
    case "invalid":
      return refuse(submission, { fieldErrors: { iban: [ibanMessage(result.problem)] } });
    case "unchanged":
      return refuse(submission, { fieldErrors: { iban: ["settings.profile.payout.unchanged"] } });
    case "throttled":
      return refuse(submission, { fieldErrors: { iban: ["errors.tooManyRequests"] } });
    case "pending":
      return redirectWithFlash(request, confirm, { kind: "info", message: "settings.profile.payout.pending" });
    case "sent":
      return redirectWithFlash(request, confirm, codeSentFlash(result, "settings.profile.payout.savedPending")!);
  }
}

/** The words of a change waiting for its code, by field. */
const PENDING_WORDS = {
  email: {
    label: "settings.profile.email",
    newValue: "settings.pendingChange.newEmail",
    confirm: "settings.profile.confirmEmail",
    cancel: "settings.profile.cancelEmail",
  },
  phone: {
    label: "settings.profile.phone",
    newValue: "settings.pendingChange.newPhone",
    confirm: "settings.profile.confirmPhone",
    cancel: "settings.profile.cancelPhone",
  },
  iban: {
    label: "settings.profile.payout.current",
    newValue: "settings.profile.payout.newIban",
    confirm: "settings.profile.payout.confirm",
    cancel: "settings.profile.payout.cancel",
  },
} as const;

function PendingValue({ field, value }: { field: ContactField | typeof IBAN_FIELD; value: string }) {
  const { t } = useTranslation();
  const words = PENDING_WORDS[field];
  return (
    <div className="pending-change" id={`profile-${field}`}>
      <p className="pending-change__label">{t(words.label)}</p>
      <p className="alert alert--info">
        {t("settings.pendingChange.inProgress")} {t(words.newValue)} : <strong>{value}</strong>
      </p>
      <div className="actions">
        <Link to={href("/settings/profile/confirm/:field", { field })} className="button">
          {t(words.confirm)}
        </Link>
        <Form method="post">
          <input type="hidden" name="field" value={field} />
          <button type="submit" name="intent" value={INTENT.cancel} className="button button--secondary">
            {t(words.cancel)}
          </button>
        </Form>
      </div>
    </div>
  );
}

/**
 * The bank details (decision 0054): the saved IBAN masked — its country, check digits and last four only, read
 * out as "IBAN ending in 0189" — then either the change waiting for its code or the form to set or change it.
 */
function PayoutSection({
  payout,
  form,
  field,
}: {
  payout: { saved: { masked: string; lastFour: string } | null; pending: string | null };
  form: ReturnType<typeof useForm<ProfileIbanForm>>[0];
  field: ReturnType<typeof useForm<ProfileIbanForm>>[1]["iban"];
}) {
  const { t } = useTranslation();
  const { saved, pending } = payout;
  return (
    <section className="settings-card" aria-labelledby="profile-payout">
      <h2 id="profile-payout">{t("settings.profile.payout.title")}</h2>
      <p>{t("settings.profile.payout.intro")}</p>
      {saved ? (
        <dl className="summary-list summary-list--flat">
          <div>
            <dt>{t("settings.profile.payout.current")}</dt>
            <dd>
              <span className="payout-masked" aria-hidden="true">
                {saved.masked}
              </span>
              <span className="visually-hidden">
                {t("settings.profile.payout.endingIn", { lastFour: saved.lastFour })}
              </span>
            </dd>
          </div>
        </dl>
      ) : (
        <p className="hint">{t("settings.profile.payout.none")}</p>
      )}
      {pending ? (
        <PendingValue field={IBAN_FIELD} value={pending} />
      ) : (
        <Form method="post" {...getFormProps(form)} noValidate>
          <Field
            required
            field={field}
            label={t(saved ? "settings.profile.payout.iban" : "settings.profile.payout.ibanFirst")}
            hint={t("settings.profile.payout.ibanHint")}
            autoComplete="off"
            spellCheck={false}
            maxLength={60}
          />
          <div className="actions">
            <button type="submit" name="intent" value={INTENT.iban} className="button">
              {t(saved ? "settings.profile.payout.save" : "settings.profile.payout.saveFirst")}
            </button>
          </div>
        </Form>
      )}
    </section>
  );
}

type AddressFields = ReturnType<typeof useForm<AddressForm>>[1];
type AddressForm = { line1: string; line2: string; zipcode: string; city: string; country: string };

/** The postal address (decision 0054): the delivery address's rules, saved at once (no code). */
function PostalAddressSection({
  form,
  fields,
}: {
  form: ReturnType<typeof useForm<AddressForm>>[0];
  fields: AddressFields;
}) {
  const { t } = useTranslation();
  const line = (name: "line1" | "line2" | "zipcode" | "city", autoComplete: string, optional = false) => (
    <Field
      field={fields[name]}
      label={t(`cards.create.address.${name}`)}
      hint={name === "line1" || name === "line2" ? t(`cards.create.address.${name}Hint`) : undefined}
      optional={optional}
      required={!optional}
      autoComplete={autoComplete}
      maxLength={name === "zipcode" ? 10 : 50}
    />
  );
  return (
    <section className="settings-card" aria-labelledby="profile-address">
      <h2 id="profile-address">{t("settings.profile.address.title")}</h2>
      <p>{t("settings.profile.address.intro")}</p>
      <Form method="post" {...getFormProps(form)} noValidate>
        <RequiredNote />
        {line("line1", "address-line1")}
        {line("line2", "address-line2", true)}
        {line("zipcode", "postal-code")}
        {line("city", "address-level2")}
        <Select
          required
          field={fields.country}
          label={t("cards.create.address.country")}
          autoComplete="country"
          options={Object.entries(DELIVERY_COUNTRIES).map(([code, name]) => ({ value: code, label: name }))}
        />
        <div className="actions">
          <button type="submit" name="intent" value={INTENT.address} className="button">
            {t("settings.profile.address.save")}
          </button>
        </div>
      </Form>
    </section>
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
  const { profile, lightVersion, payout, address } = loaderData;
  // Four forms, one action: each shows only the reply to its own intent.
  const replyTo = (intent: string) => (actionData?.initialValue?.intent === intent ? actionData : undefined);
  const [displayForm, displayFields] = useForm<LightVersionForm>({
    id: "display",
    lastResult: replyTo(INTENT.display),
    defaultValue: { lightVersion: lightVersion.chosen ? "on" : "off" },
  });
  const [ibanForm, ibanFields] = useForm<ProfileIbanForm>({ id: "payout", lastResult: replyTo(INTENT.iban) });
  const [addressForm, addressFields] = useForm<AddressForm>({
    id: "address",
    lastResult: replyTo(INTENT.address),
    defaultValue: { ...address, line2: address?.line2 ?? "", country: address?.country ?? DEFAULT_COUNTRY },
  });
  const displayOptions = (["on", "off"] as const).map((value) => ({ value, label: t(`settings.display.${value}`) }));
  const [form, fields] = useForm<ProfileForm>({
    id: "profile",
    lastResult: replyTo(INTENT.save),
    defaultValue: {
      email: profile.email,
      phone: profile.phone ?? "",
      terms: profile.termsConfirmed ? "on" : undefined,
    },
  });
  return (
    <div>
      <PageHeader
        title={t("settings.profile.title")}
        error={!form.valid || !displayForm.valid || !ibanForm.valid || !addressForm.valid}
      />
      {/* "Nothing changed" is about the whole form: its link goes to the e-mail (its field, or its pending change). */}
      <ErrorSummary form={form} fields={[fields.email, fields.phone]} />
      <ErrorSummary
        form={displayForm}
        fields={[
          { field: displayFields.lightVersion, target: choiceTarget(displayFields.lightVersion, displayOptions) },
        ]}
      />
      <ErrorSummary form={ibanForm} fields={[ibanFields.iban]} />
      <ErrorSummary
        form={addressForm}
        fields={[
          addressFields.line1,
          addressFields.line2,
          addressFields.zipcode,
          addressFields.city,
          addressFields.country,
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

      <PayoutSection payout={payout} form={ibanForm} field={ibanFields.iban} />
      <PostalAddressSection form={addressForm} fields={addressFields} />

      <LightVersionSetting
        setting={lightVersion}
        form={displayForm}
        field={displayFields.lightVersion}
        options={displayOptions}
      />
    </div>
  );
}
