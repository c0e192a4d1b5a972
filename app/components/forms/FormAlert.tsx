import { useTranslation } from "~/i18n";

/** The errors of the whole form (catalogue keys), as an alert above it. */
export function FormAlert({ errors, kind = "error" }: { errors: string[] | undefined; kind?: "error" | "warning" }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <div className={`alert alert--${kind}`} role="alert">
      {errors.map((e) => (
        <p key={e}>{t(e)}</p>
      ))}
    </div>
  );
}
