import { randomInt } from "node:crypto";
import type { Page, Response } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible, expectNoHorizontalScroll, submitPassword } from "./helpers";

/**
 * Codes by SMS only to a mobile (issue 33 item 1, decision 0062; spec 001 §2.4, §4): choosing SMS, in the security
 * settings or at the secure-account step, is refused with the form contract's 400 and a French reason when the
 * number is a landline or a number outside the mobile ranges of the countries offered; a mobile is accepted.
 * JavaScript on and off; each test makes its own account. Then the sign-in's code page when the code's SMS waits in
 * the outbox or was refused by the gateway.
 */

/** The answer of the next POST of the page (a document navigation without JS, a fetch with it). */
function nextPost(page: Page): Promise<Response> {
  return page.waitForResponse((response) => response.request().method() === "POST");
}

test("security settings: SMS to a landline is refused (400, the reason said); the codes still go by e-mail", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const person = await makeAccount({
    phone: "+33145678901",
    mfa: "EMAIL",
    cards: [{ type: "virtual", lastFour: "4242" }],
  });
  await signInAs(page, person);
  await page.goto("/settings/security");
  await page.getByRole("link", { name: "Activer par SMS" }).click();
  await expect(page).toHaveURL(/\/settings\/security\/mfa\/SMS$/);
  await expect(
    page.getByText("Vos codes de connexion et de sécurité seront envoyés par SMS au +33145678901."),
  ).toBeVisible();
  const refused = nextPost(page);
  await page.getByRole("button", { name: "Confirmer" }).click();
  expect((await refused).status()).toBe(400);
  const alert = page.getByRole("alert").filter({ hasText: "Ce numéro n’est pas un numéro de mobile" });
  await expect(alert).toHaveText(
    "Ce numéro n’est pas un numéro de mobile : il ne peut pas recevoir les codes par SMS. Choisissez l’e-mail, ou indiquez un numéro de mobile dans votre profil.",
  );
  await expect(page).toHaveTitle(/^Erreur : Recevoir les codes par SMS/);
  await expectAccessible(page, "security settings, SMS to a landline refused");
  await expectNoHorizontalScroll(page, "security settings, SMS to a landline refused");
  // Nothing changed: the codes still go by e-mail.
  await page.goto("/settings/security");
  await expect(page.getByText("Activée. Vos codes arrivent : Par e-mail.")).toBeVisible();
});

test("security settings: SMS to a mobile is accepted and becomes the second factor", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const person = await makeAccount({
    phone: "+33612345678",
    mfa: "EMAIL",
    cards: [{ type: "virtual", lastFour: "4242" }],
  });
  await signInAs(page, person);
  await page.goto("/settings/security/mfa/SMS");
  const accepted = nextPost(page);
  await page.getByRole("button", { name: "Confirmer" }).click();
  expect((await accepted).status()).toBeLessThan(400);
  await expect(page).toHaveURL(/\/settings\/security$/);
  await expect(page.getByText("Vos paramètres de sécurité sont mis à jour.")).toBeVisible();
  await expectAccessible(page, "security settings, SMS to a mobile saved");
});

test("secure-account step: SMS to a number of a country outside the list is refused; e-mail then opens the portal", async ({
  page,
  makeAccount,
  signInAs,
}) => {
  const person = await makeAccount({
    phone: "+12025550123",
    mfa: null,
    cards: [{ type: "virtual", lastFour: "4242" }],
  });
  await signInAs(page, person);
  await page.goto("/secure-account/second-factor?channel=SMS");
  const refused = nextPost(page);
  await page.getByRole("button", { name: "Confirmer" }).click();
  expect((await refused).status()).toBe(400);
  await expect(page.getByRole("alert").filter({ hasText: "Les codes par SMS" })).toContainText(
    "Les codes par SMS ne sont envoyés qu’aux mobiles des pays proposés pour le numéro",
  );
  await expect(page).toHaveTitle(/^Erreur : /);
  await expectAccessible(page, "secure account, SMS to a foreign number refused");
  // The way on: e-mail.
  await page.goto("/secure-account/second-factor?channel=EMAIL");
  await page.getByRole("button", { name: "Confirmer" }).click();
  await expect(page).toHaveURL(/\/cards/);
});

test("sign-in by SMS: the code page says when the SMS waits in the outbox, and when the number was refused", async ({
  page,
  makeAccount,
  e2eDatabase,
}) => {
  const phone = `+336${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
  const person = await makeAccount({ phone, mfa: "SMS", cards: [{ type: "virtual", lastFour: "4242" }] });
  await page.goto("/login");
  await submitPassword(page, person.email);
  await expect(page).toHaveURL(/\/login\/code$/);
  await expect(page.getByText(/nous avons envoyé un code à 6 chiffres à .* \(par SMS\)/)).toBeVisible();
  // The gateway failed the first attempt (Brevo down, decision 0062): the outbox row the server would have written.
  const { db } = e2eDatabase.handle;
  const now = new Date();
  await db
    .insertInto("mail_outbox")
    .values({
      id: `sms_e2e_${randomInt(0, 1e9)}`,
      channel: "sms",
      recipient: phone,
      subject: "Votre code de connexion",
      body: "Votre code de connexion est 000000.",
      status: "pending",
      attempts: 1,
      next_attempt_at: new Date(now.getTime() + 10_000).toISOString(),
      give_up_at: new Date(now.getTime() + 15 * 60_000).toISOString(),
      lease_owner: null,
      lease_until: null,
      last_error: "Brevo could not be reached: ECONNREFUSED",
      created_at: now.toISOString(),
      finished_at: null,
    })
    .execute();
  await page.reload();
  await expect(
    page.getByText(/le SMS n’a pas encore pu partir, il partira automatiquement dès que possible/),
  ).toBeVisible();
  await expect(page.getByText(/nous avons envoyé un code/)).toHaveCount(0);
  await expectAccessible(page, "sign-in code, SMS waiting");
  // Brevo refused the number for good: the row given up as the outbox leaves it.
  await db
    .updateTable("mail_outbox")
    .set({
      status: "given_up",
      body: "",
      last_error: "refused: Brevo refused the text message (400 invalid_parameter)",
    })
    .where("recipient", "=", phone)
    .execute();
  await page.reload();
  await expect(page.getByText(/ce numéro ne peut pas recevoir de SMS/)).toBeVisible();
  await expectAccessible(page, "sign-in code, SMS refused");
});
