import { useEffect, useRef, type MouseEvent } from "react";
import { useTranslation } from "~/i18n";

export interface SummaryError {
  /**
   * The id the link moves to: a field, or a fieldset (a group of radios, or amounts checked together).
   * Never a disabled control: without JS the browser would move to it and focus nothing (issue 13, finding 8).
   */
  fieldId: string;
  /** A catalogue key. */
  message: string;
}

const CONTROLS = "input:not([type=hidden]):not(:disabled), select:not(:disabled), textarea:not(:disabled)";

/**
 * What a summary link focuses with JS: the control itself, or for a fieldset (or a disabled control)
 * the first enabled control of its group, the legend scrolled into view — as GOV.UK's summary does.
 */
function focusTarget(target: HTMLElement): { focus: HTMLElement; reveal: HTMLElement } | null {
  const group = target instanceof HTMLFieldSetElement ? target : target.matches(":disabled") ? target.closest("fieldset") : null;
  if (!group) return { focus: target, reveal: target.closest(".field") instanceof HTMLElement ? (target.closest(".field") as HTMLElement) : target };
  const first = group.querySelector<HTMLElement>(CONTROLS);
  if (!first) return null;
  return { focus: first, reveal: group.querySelector("legend") ?? group };
}

/** GOV.UK-style summary at the top of <main>: one link per faulty field; focused when JS runs. */
export function ErrorSummary({ errors }: { errors: SummaryError[] }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (errors.length > 0) ref.current?.focus();
  }, [errors]);
  if (errors.length === 0) return null;
  // With JS, following the link in place: a hash change would be a navigation for the router, which
  // forgets the action's answer (the summary and the inline errors would vanish, focus on <body>).
  const follow = (event: MouseEvent<HTMLAnchorElement>, id: string) => {
    const target = document.getElementById(id);
    const found = target ? focusTarget(target) : null;
    if (!found) return;
    event.preventDefault();
    found.reveal.scrollIntoView({ block: "start" });
    found.focus.focus({ preventScroll: true });
  };
  return (
    <div className="error-summary" role="alert" aria-labelledby="error-summary-title" tabIndex={-1} ref={ref}>
      <h2 id="error-summary-title" className="error-summary__title">
        {t("errors.summaryTitle")}
      </h2>
      <ul>
        {errors.map((e) => (
          <li key={e.fieldId + e.message}>
            <a href={`#${e.fieldId}`} onClick={(event) => follow(event, e.fieldId)}>
              {t(e.message)}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
