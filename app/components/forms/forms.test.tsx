import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { expect, test } from "vitest";
import { TranslationProvider, translatorFor } from "~/i18n";
import fr from "../../../locales/fr/translation.json";
import {
  choiceTarget,
  DateField,
  ErrorSummary,
  Field,
  NewSecretPair,
  OneTimeCodeField,
  Radios,
  type FieldMeta,
} from ".";

/** Renders a component as the server does, inside a router (the components read the action's answer). */
async function render(node: ReactNode): Promise<Html> {
  const handler = createStaticHandler([{ path: "/", Component: () => node }]);
  const context = await handler.query(new Request("http://localhost/"));
  if (context instanceof Response) throw new Error("unexpected response");
  const html = renderToStaticMarkup(
    <TranslationProvider translate={translatorFor(fr)} locale="fr">
      <StaticRouterProvider
        router={createStaticRouter(handler.dataRoutes, context)}
        context={context}
        hydrate={false}
      />
    </TranslationProvider>,
  );
  return new Html(html);
}

/** Just enough of the markup to read (no DOM in the unit tests): elements by id or tag, with their attributes. */
class Html {
  constructor(readonly html: string) {}
  private tags(match: (tag: string, attrs: Record<string, string>) => boolean) {
    const found: { tag: string; attrs: Record<string, string>; at: number }[] = [];
    for (const m of this.html.matchAll(/<([a-z0-9]+)((?:\s+[\w:-]+(?:="[^"]*")?)*)\s*\/?>/g)) {
      const attrs: Record<string, string> = {};
      for (const a of m[2]!.matchAll(/([\w:-]+)(?:="([^"]*)")?/g)) attrs[a[1]!.toLowerCase()] = a[2] ?? "";
      if (match(m[1]!, attrs)) found.push({ tag: m[1]!, attrs, at: m.index });
    }
    return found;
  }
  byId(id: string) {
    return this.tags((_t, a) => a.id === id)[0]?.attrs;
  }
  all(tag: string, attr?: [string, string]) {
    return this.tags((t, a) => t === tag && (!attr || a[attr[0]] === attr[1])).map((f) => f.attrs);
  }
  /** The text of the element with this id (no nested element of the same tag). */
  textOf(id: string): string | undefined {
    const m = new RegExp(`<([a-z0-9]+)[^>]*\\bid="${id}"[^>]*>([\\s\\S]*?)</\\1>`).exec(this.html);
    return m ? m[2]!.replace(/<[^>]+>/g, "").replace(/&#x27;/g, "'") : undefined;
  }
}

const meta = (id: string, name: string, extra: Partial<FieldMeta> = {}): FieldMeta => ({
  id: `${id}-${name}`,
  name,
  errorId: `${id}-${name}-error`,
  ...extra,
});

test("a field's ids, description and error come from conform's metadata", async () => {
  const field = meta("login", "email", { errors: ["errors.emailRequired"], initialValue: "a@b" });
  const doc = await render(
    <Field required field={field} label="Adresse e-mail" hint="Celle de votre compte" type="email" />,
  );
  const input = doc.byId("login-email")!;
  expect(input).toMatchObject({
    name: "email",
    type: "email",
    value: "a@b",
    "aria-invalid": "true",
    "aria-required": "true",
    "aria-describedby": "login-email-hint login-email-error",
  });
  expect(input.required).toBeUndefined();
  expect(doc.all("label")[0]).toMatchObject({ for: "login-email" });
  expect(doc.textOf("login-email-error")).toBe("Erreur : Saisissez votre adresse e-mail");
  expect(doc.textOf("login-email-hint")).toBe("Celle de votre compte");
});

test("a valid field is neither invalid nor described by an error", async () => {
  const doc = await render(<Field field={meta("f", "city")} label="Ville" />);
  const input = doc.byId("f-city")!;
  expect(input["aria-invalid"]).toBeUndefined();
  expect(input["aria-describedby"]).toBeUndefined();
  expect(doc.html).not.toContain("field__error");
});

test("a new password pair and a one-time code carry their autofill hints; secrets are never echoed", async () => {
  const doc = await render(
    <>
      <NewSecretPair
        kind="password"
        secret={meta("f", "password")}
        confirmation={meta("f", "confirmation")}
        label="Nouveau"
        confirmationLabel="Confirmez"
      />
      <NewSecretPair
        kind="pin"
        secret={meta("f", "pin")}
        confirmation={meta("f", "pinConfirmation")}
        label="Code PIN"
        confirmationLabel="Confirmez le code"
      />
      <OneTimeCodeField field={meta("f", "code")} />
    </>,
  );
  expect(doc.byId("f-password")).toMatchObject({
    type: "password",
    autocomplete: "new-password",
    "aria-describedby": "f-password-hint",
  });
  expect(doc.byId("f-confirmation")).toMatchObject({ type: "password", autocomplete: "new-password" });
  expect(doc.byId("f-pin")).toMatchObject({ type: "password", inputmode: "numeric", maxlength: "4" });
  expect(doc.byId("f-code")).toMatchObject({ type: "text", autocomplete: "one-time-code", inputmode: "numeric" });
});

test("radios: a fieldset described by its hint and error, marked invalid; the summary links to the first open option", async () => {
  const field = meta("stop", "reason", { errors: ["errors.stopReasonRequired"] });
  const options = [
    { value: "lost", label: "Perdue", disabled: true },
    { value: "stolen", label: "Volée" },
  ];
  const doc = await render(<Radios required field={field} legend="Pourquoi ?" hint="Choisissez" options={options} />);
  expect(doc.byId("stop-reason")).toMatchObject({
    "aria-invalid": "true",
    "aria-describedby": "stop-reason-hint stop-reason-error",
  });
  expect(doc.html).toContain("<fieldset");
  expect(doc.html).toContain("<legend>Pourquoi ?</legend>");
  const radios = doc.all("input", ["type", "radio"]);
  expect(radios.map((r) => r.id)).toEqual(["stop-reason-lost", "stop-reason-stolen"]);
  for (const radio of radios) expect(radio).toMatchObject({ name: "reason", required: "" });
  expect(radios.some((r) => "aria-invalid" in r)).toBe(false);
  expect(radios[0]!.disabled).toBe("");
  expect(choiceTarget(field, options)).toBe("stop-reason-stolen");
  expect(choiceTarget(field, [{ value: "lost", label: "Perdue", disabled: true }])).toBe("stop-reason");
});

test("the error summary: the form's errors then each field's, linked to their ids; the alert role is not on the labelled container", async () => {
  const email = meta("login", "email", { errors: ["errors.emailRequired"] });
  const password = meta("login", "password");
  const doc = await render(<ErrorSummary form={{ errors: ["errors.credentials"] }} fields={[email, password]} />);
  const [container, ...inner] = doc.all("div");
  expect(container).toMatchObject({ class: "error-summary", "aria-labelledby": "error-summary-title", tabindex: "-1" });
  expect(container!.role).toBeUndefined();
  expect(inner[0]).toMatchObject({ role: "alert" });
  expect(doc.html.indexOf('role="alert"')).toBeLessThan(doc.html.indexOf('id="error-summary-title"'));
  expect(doc.all("a").map((a) => a.href)).toEqual(["#login-email", "#login-email"]);
  expect(doc.html).toContain("L’adresse e-mail ou le mot de passe est incorrect");
  expect(doc.html).toContain("Saisissez votre adresse e-mail");
  expect((await render(<ErrorSummary form={{}} fields={[password]} />)).html).not.toContain("error-summary");
});

test("a date field: numeric keypad, the example before its own hint, a day its month has not said with figures", async () => {
  const field = meta("details", "ticket_date", { errors: ["dates.errors.dayOfMonth"], initialValue: "31022026" });
  // Conform's metadata reads through getters on its prototype: nothing of it is lost on the way.
  const throughGetters = Object.create(
    Object.defineProperties({}, Object.fromEntries(Object.entries(field).map(([k, v]) => [k, { get: () => v }]))),
  ) as FieldMeta;
  const doc = await render(<DateField field={throughGetters} label="Date" hint="Au plus tard aujourd’hui." />);
  expect(doc.byId("details-ticket_date")).toMatchObject({
    name: "ticket_date",
    inputmode: "numeric",
    autocomplete: "off",
    "aria-describedby": "details-ticket_date-hint details-ticket_date-error",
  });
  expect(doc.textOf("details-ticket_date-hint")).toBe("Au plus tard aujourd’hui. Par exemple 01/11/2026 ou 01112026.");
  expect(doc.textOf("details-ticket_date-error")).toContain("Le 31/02/2026 n’existe pas : février 2026 a 28 jours.");
  // The summary has the key alone: its words carry no figure to fill.
  const summary = await render(<ErrorSummary form={undefined} fields={[field]} />);
  expect(summary.html).toContain("Ce jour n’existe pas dans ce mois.");
  // Any other error is shown as it is.
  const month = meta("details", "ticket_date", { errors: ["dates.errors.month"], initialValue: "1/13/2026" });
  expect((await render(<DateField field={month} label="Date" />)).textOf("details-ticket_date-error")).toContain(
    "Le mois doit être entre 01 et 12.",
  );
});
