import { Fragment } from "react";

/**
 * An e-mail address (or any dotted name) that may wrap after its « @ » and its dots when the line is too
 * narrow, never inside one of its words (RGAA 10.11: at 320 px or with larger text spacing the column can
 * shrink, and `overflow-wrap` alone would cut « example.c|om »). The text read and copied is unchanged:
 * `<wbr>` adds only a break opportunity.
 */
export function BreakableAddress({ text }: { text: string }) {
  const parts = text.split(/(?<=[@.])/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
