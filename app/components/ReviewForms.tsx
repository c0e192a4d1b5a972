import { Form } from "react-router";

/**
 * The funder's two forms on one item of a sandbox reviewer (refunds, allowances): approve, and the
 * decisions that need a reason (refuse, ask for a correction), each posting the item's id and an intent.
 */
export function ReviewForms(props: {
  /** The form field naming the item ("requestId", "allowanceId"). */
  idName: string;
  id: string;
  reasonLabel: string;
  reasonMax: number;
  approve: { intent: string; label: string };
  withReason: { intent: string; label: string }[];
}) {
  const { idName, id } = props;
  return (
    <>
      <Form method="post" className="actions">
        <input type="hidden" name={idName} value={id} />
        <button type="submit" name="intent" value={props.approve.intent} className="button">
          {props.approve.label}
        </button>
      </Form>
      <Form method="post">
        <input type="hidden" name={idName} value={id} />
        <label htmlFor={`reason-${id}`}>{props.reasonLabel}</label>
        <input id={`reason-${id}`} name="reason" type="text" required maxLength={props.reasonMax} className="input" />
        <p className="actions">
          {props.withReason.map((decision) => (
            <button
              key={decision.intent}
              type="submit"
              name="intent"
              value={decision.intent}
              className="button button--secondary"
            >
              {decision.label}
            </button>
          ))}
        </p>
      </Form>
    </>
  );
}
