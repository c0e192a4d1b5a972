import { describe, expect, test } from "vitest";
import fr from "../../../locales/fr/translation.json";
import { intents } from "~/routes/+shared/intents";
import { intentOf, unknownIntent } from "~/routes/+shared/intents.server";

const INTENT = intents("save", "cancel");

const formWith = (entries: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(entries)) form.append(name, value);
  return form;
};

/** What `intentOf` threw: the refusal rendered by the error page. */
function thrown(run: () => unknown): { data: { message: string }; init: ResponseInit | null } {
  try {
    run();
  } catch (error) {
    return error as { data: { message: string }; init: ResponseInit | null };
  }
  throw new Error("nothing thrown");
}

describe("intents declared once", () => {
  test("the declaration is the buttons' values", () => {
    expect(INTENT).toEqual({ save: "save", cancel: "cancel" });
    expect(Object.isFrozen(INTENT)).toBe(true);
  });

  test("a declared intent is returned as it is", () => {
    expect(intentOf(formWith({ intent: "cancel" }), INTENT)).toBe("cancel");
    expect(intentOf(formWith({ intent: "save", field: "x" }), INTENT)).toBe("save");
  });

  test.each([
    ["missing", {}],
    ["unknown", { intent: "delete" }],
    ["empty", { intent: "" }],
    ["an object's own property", { intent: "constructor" }],
    ["another case", { intent: "SAVE" }],
  ])("%s intent: 400 with the French message", (_name, entries) => {
    const refusal = thrown(() => intentOf(formWith(entries), INTENT));
    expect(refusal.init?.status).toBe(400);
    expect(refusal.data.message).toBe("errors.unknownIntent");
    expect(fr.errors.unknownIntent).toBe("Cette action n’est pas reconnue. Rechargez la page et réessayez");
  });

  test("a file in place of the intent is refused too", () => {
    const form = new FormData();
    form.append("intent", new Blob(["save"]), "save");
    expect(thrown(() => intentOf(form, INTENT)).init?.status).toBe(400);
  });

  test("every route answers an unknown intent the same way", () => {
    expect(unknownIntent()).toEqual(thrown(() => intentOf(new FormData(), INTENT)));
  });
});
