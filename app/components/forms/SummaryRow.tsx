import type { ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation } from "~/i18n";
import type { FieldMeta } from "./meta";

/**
 * A row of a wizard's summary (`<dl class="summary-list">`): its label, its value, the platform's errors
 * for it (spec 001 §8: "highlighted" on their rows, reached from the error summary through
 * `summaryRowFields`) and, if given, the link back to the step that changes it.
 */
export function SummaryRow({
  id,
  label,
  value,
  errors = [],
  edit,
}: {
  /** The row's id: the error summary links to it. */
  id: string;
  label: string;
  value: ReactNode;
  /** Catalogue keys. */
  errors?: string[];
  edit?: { to: string; label: string } | null;
}) {
  const { t } = useTranslation();
  return (
    <div className={errors.length ? "field--error" : undefined} id={id} tabIndex={-1}>
      <dt>{label}</dt>
      <dd>
        {value}
        {errors.map((m, i) => (
          <p className="field__error" key={m} id={i === 0 ? `${id}-error` : undefined}>
            <span className="visually-hidden">{t("errors.prefix")}</span>
            {t(m)}
          </p>
        ))}
        {edit ? (
          <>
            {" "}
            <Link to={edit.to} className="link-action" preventScrollReset>
              {edit.label}
              <span className="visually-hidden"> : {label}</span>
            </Link>
          </>
        ) : null}
      </dd>
    </div>
  );
}

/** The rows with errors, as fields of the error summary (each links to its row `${prefix}${name}`). */
export function summaryRowFields(
  prefix: string,
  errors: Record<string, string[]>,
  names: readonly string[],
): FieldMeta[] {
  return names
    .filter((name) => errors[name]?.length)
    .map((name) => ({ id: `${prefix}${name}`, name, errorId: `${prefix}${name}-error`, errors: errors[name] }));
}
