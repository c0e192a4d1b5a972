import type { ReactNode } from "react";
import { Form } from "react-router";
import { useTranslation } from "~/i18n";
import { ErrorSummary } from "./ErrorSummary";
import { RequiredNote } from "./Field";
import type { NewPasswordForm } from "~/domain/schemas";
import type { FieldMeta } from "./meta";
import { NewSecretPair } from "./Secrets";
import { getFormProps, type FormMetadata } from "./useForm";

/** Choosing a new password (reset by link, or replacing a temporary one): summary, intro, the pair, submit. */
export function ChooseNewPassword({
  form,
  fields,
  intro,
  submit,
}: {
  form: FormMetadata<NewPasswordForm, string[]>;
  fields: { password: FieldMeta; confirmation: FieldMeta };
  intro: ReactNode;
  submit: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <ErrorSummary form={form} fields={[fields.password, fields.confirmation]} />
      <p>{intro}</p>
      <Form method="post" {...getFormProps(form)} noValidate>
        <RequiredNote />
        <NewSecretPair
          kind="password"
          secret={fields.password}
          confirmation={fields.confirmation}
          label={t("auth.resetPassword.password")}
          confirmationLabel={t("auth.resetPassword.confirmation")}
        />
        <button type="submit" className="button">
          {submit}
        </button>
      </Form>
    </>
  );
}
