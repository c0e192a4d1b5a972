import { useEffect, useRef } from "react";
import { useTranslation } from "~/i18n";

export interface SummaryError {
  /** The id of the field the link moves to. */
  fieldId: string;
  /** A catalogue key. */
  message: string;
}

/** GOV.UK-style summary at the top of <main>: one link per faulty field; focused when JS runs. */
export function ErrorSummary({ errors }: { errors: SummaryError[] }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (errors.length > 0) ref.current?.focus();
  }, [errors]);
  if (errors.length === 0) return null;
  return (
    <div className="error-summary" role="alert" aria-labelledby="error-summary-title" tabIndex={-1} ref={ref}>
      <h2 id="error-summary-title" className="error-summary__title">
        {t("errors.summaryTitle")}
      </h2>
      <ul>
        {errors.map((e) => (
          <li key={e.fieldId + e.message}>
            <a href={`#${e.fieldId}`}>{t(e.message)}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}
