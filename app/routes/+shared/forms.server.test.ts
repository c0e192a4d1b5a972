import { describe, expect, test } from "vitest";
import { z } from "zod";
import { parseForm, refuse, reply, resetForm } from "~/routes/+shared/forms.server";

const schema = z.object({
  email: z.string({ error: "errors.emailRequired" }).email("errors.emailInvalid"),
  password: z.string({ error: "errors.passwordRequired" }),
});

const formWith = (entries: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(entries)) form.append(name, value);
  return form;
};

describe("the form contract", () => {
  test("a refused submission is conform's reply with 400, the secret left out", () => {
    const submission = parseForm(formWith({ email: "not-an-email", password: "s3cret" }), schema);
    expect(submission.status).toBe("error");
    const answer = refuse(submission, { hideFields: ["password"] });
    expect(answer.init?.status).toBe(400);
    expect(answer.data.status).toBe("error");
    expect(answer.data.error).toEqual({ email: ["errors.emailInvalid"] });
    expect(answer.data.initialValue).toEqual({ email: "not-an-email" });
    expect(JSON.stringify(answer.data)).not.toContain("s3cret");
  });

  test("a refusal by the server (e.g. wrong credentials) goes to the form or to one field", () => {
    const submission = parseForm(formWith({ email: "a@b.fr", password: "wrong" }), schema);
    expect(submission.status).toBe("success");
    const toForm = refuse(submission, { formErrors: ["errors.credentials"], hideFields: ["password"] });
    expect(toForm.init?.status).toBe(400);
    expect(toForm.data.error).toEqual({ "": ["errors.credentials"] });
    expect(toForm.data.initialValue).toEqual({ email: "a@b.fr" });

    const toField = refuse(parseForm(formWith({ email: "a@b.fr", password: "wrong" }), schema), {
      fieldErrors: { password: ["errors.wrongPassword"] },
      hideFields: ["password"],
    });
    expect(toField.data.error).toEqual({ password: ["errors.wrongPassword"] });
    expect(JSON.stringify(toField.data)).not.toContain('wrong"');
  });

  test("a reply without refusal keeps the parse's own errors", () => {
    const submission = parseForm(formWith({}), schema);
    expect(reply(submission).error).toEqual({ email: ["errors.emailRequired"], password: ["errors.passwordRequired"] });
  });

  test("a form reset sends no value back", () => {
    const submission = parseForm(formWith({ email: "a@b.fr", password: "x" }), schema);
    expect(resetForm(submission)).toEqual({ initialValue: null });
  });
});
