/**
 * What a service says when it refuses what it was asked (decision 0051): a code for each problem and the
 * form field it belongs to (null: the whole request), never words. The route words the codes through its
 * feature's table of catalogue keys (`refusalOf` in routes/+shared/problems.server.ts), so a service knows
 * nothing of the catalogue and a code without words fails the typecheck.
 */
export interface Problem<Field extends string = string, Code extends string = string> {
  field: Field | null;
  code: Code;
}

/** A refused request: its problems, in the order the form shows its fields. */
export interface Invalid<Field extends string = string, Code extends string = string> {
  kind: "invalid";
  problems: Problem<Field, Code>[];
}

/** A problem of a field, or of the whole request (field null). */
export const problem = <Field extends string, Code extends string>(
  field: Field | null,
  code: Code,
): Problem<Field, Code> => ({ field, code });
