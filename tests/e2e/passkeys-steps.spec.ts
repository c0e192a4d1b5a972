import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { expect, test, type TestAccount } from "./fixtures";
import { latestCodeFor } from "./helpers";
import { seedPasskey } from "./passkeys";

/**
 * The note's figures for issue 32 ("the steps and time of « show my PIN » and « sign in » before and after"):
 * each way is done RUNS times as a person would, counting page loads, clicks, keystrokes, trips to the mailbox
 * and unlocks of the device (the phone's fingerprint, face or code a passkey asks for; Chromium's virtual
 * authenticator answers at once), and timing it from the first click to the result shown. The code is read
 * from the outbox at once, so the code's times are a floor: a person also waits for the message and switches
 * apps. The figures are written to test-results/passkey-steps.json; with JavaScript the passkey ways must take
 * fewer steps and keystrokes than the code's and send no code. Without JavaScript only the code's ways exist.
 */

const RUNS = 5;
const FIGURES = "test-results/passkey-steps.json";
const REVEAL_SUBJECT = "Votre code pour afficher votre carte";
const SIGN_IN_SUBJECT = "Votre code de connexion";
const jsOn = () => test.info().project.use.javaScriptEnabled !== false;

/** What one way took: the same steps on every run, and each run's time. */
interface Effort {
  pageLoads: number;
  clicks: number;
  keystrokes: number;
  mailboxTrips: number;
  deviceUnlocks: number;
  /** What the person does: clicks, trips to the mailbox and unlocks (keystrokes apart). */
  steps: number;
  /** The characters typed in each field (the e-mail's length is the test account's). */
  typed: Record<string, number>;
  runsMs: number[];
  medianMs: number;
}

/**
 * A person's effort on one run: every click (a field typed in counts one, its characters as keystrokes),
 * every document the browser loads (the first page included) and every trip to the mailbox for a code.
 */
class Tally {
  pageLoads = 0;
  clicks = 0;
  keystrokes = 0;
  mailboxTrips = 0;
  deviceUnlocks = 0;
  typed: Record<string, number> = {};
  private started = 0;
  private readonly page: Page;
  private readonly loaded = () => {
    this.pageLoads += 1;
  };

  constructor(page: Page) {
    this.page = page;
    page.on("load", this.loaded);
  }

  /** The clock starts at the first click or keystroke. */
  private start() {
    if (this.started === 0) this.started = performance.now();
  }
  async click(target: Locator) {
    this.start();
    this.clicks += 1;
    await target.click();
  }
  async type(field: string, target: Locator, text: string) {
    this.start();
    this.clicks += 1;
    this.keystrokes += text.length;
    this.typed[field] = text.length;
    await target.fill(text);
  }
  /** A passkey button: its click, then the device's unlock. */
  async unlock(target: Locator) {
    await this.click(target);
    this.deviceUnlocks += 1;
  }
  async mailbox(read: () => Promise<string>): Promise<string> {
    this.mailboxTrips += 1;
    return read();
  }
  /** The run is over: its time since the first click; later loads are not counted. */
  done(): Run {
    this.page.off("load", this.loaded);
    return { tally: this, ms: Math.round(performance.now() - this.started) };
  }
}

type Run = { tally: Tally; ms: number };

/** RUNS runs of one way: the steps of the first (each run's must be the same), the median time. */
async function measure(run: () => Promise<Run>): Promise<Effort> {
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i += 1) runs.push(await run());
  const steps = ({ tally }: Run) => [
    tally.pageLoads,
    tally.clicks,
    tally.keystrokes,
    tally.mailboxTrips,
    tally.deviceUnlocks,
  ];
  for (const other of runs.slice(1)) expect(steps(other), "every run takes the same steps").toEqual(steps(runs[0]!));
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
  const { pageLoads, clicks, keystrokes, mailboxTrips, deviceUnlocks, typed } = runs[0]!.tally;
  return {
    pageLoads,
    clicks,
    keystrokes,
    mailboxTrips,
    deviceUnlocks,
    steps: clicks + mailboxTrips + deviceUnlocks,
    typed,
    runsMs: runs.map((r) => r.ms),
    medianMs: sorted[Math.floor(RUNS / 2)]!,
  };
}

/** Adds one journey's figures under this project's name, keeping the others' (the tests run one after the other). */
function record(journey: string, figures: Record<string, Effort>) {
  type Figures = Record<string, Record<string, Record<string, Effort>>>;
  const all = existsSync(FIGURES) ? (JSON.parse(readFileSync(FIGURES, "utf8")) as Figures) : {};
  const project = test.info().project.name;
  all[project] = { ...all[project], [journey]: figures };
  mkdirSync(dirname(FIGURES), { recursive: true });
  writeFileSync(FIGURES, `${JSON.stringify(all, null, 2)}\n`);
}

/** The card page of a fresh account with one physical card, signed in: where « show my PIN » starts. */
async function openCardPage(page: Page, account: TestAccount) {
  await page.goto(`/cards/${account.cards["4242"]}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte physique •••• 4242");
}

/** From the card page to the reveal panel: the card's actions, then « Afficher le code PIN ». */
async function openPinPanel(page: Page, account: TestAccount, tally: Tally) {
  await openCardPage(page, account);
  await tally.click(page.locator("summary", { hasText: "Actions sur la carte" }));
  await tally.click(page.getByRole("link", { name: "Afficher le code PIN" }));
  return page.getByRole("dialog", { name: "Code PIN" });
}

/** « Show my PIN » with a code: card page → actions → the reveal → a code by e-mail → the PIN shown. */
async function showPinWithCode(page: Page, account: TestAccount): Promise<Run> {
  const tally = new Tally(page);
  const panel = await openPinPanel(page, account, tally);
  await tally.click(panel.getByRole("button", { name: /Recevoir un code/ }));
  await expect(page).toHaveURL(/\/reveal\?step=code$/);
  const code = await tally.mailbox(() => latestCodeFor(page.request, account.email, REVEAL_SUBJECT));
  await tally.type("code", panel.getByLabel("Code à 6 chiffres"), code);
  await tally.click(panel.getByRole("button", { name: "Valider et afficher" }));
  await expect(page.frameLocator("iframe[title='Code PIN']").getByText("1234")).toBeVisible();
  return tally.done();
}

/** « Show my PIN » with a passkey: card page → actions → the reveal → the phone's unlock → the PIN shown. */
async function showPinWithPasskey(page: Page, account: TestAccount): Promise<Run> {
  const tally = new Tally(page);
  const panel = await openPinPanel(page, account, tally);
  await tally.unlock(panel.getByRole("button", { name: "Afficher avec ma clé d’accès" }));
  await expect(page.frameLocator("iframe[title='Code PIN']").getByText("1234")).toBeVisible();
  return tally.done();
}

/** Signed out, on the sign-in page (the consent already answered, as the fixtures leave it). */
async function openSignIn(page: Page) {
  const baseURL = test.info().project.use.baseURL!;
  await page.context().clearCookies();
  await page.context().addCookies([{ name: "consent", value: "refuse.refuse", url: baseURL }]);
  await page.goto("/login");
}

/** Signed in: the first card's page, where the portal lands. */
async function expectSignedIn(page: Page) {
  await expect(page).toHaveURL(/\/cards\/card_[\w-]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Carte physique •••• 4242");
}

/** « Sign in » with a code: e-mail, password, then the code sent by e-mail (the account has MFA by e-mail). */
async function signInWithCode(page: Page, account: TestAccount): Promise<Run> {
  const tally = new Tally(page);
  await openSignIn(page);
  await tally.type("email", page.getByLabel("Adresse e-mail"), account.email);
  await tally.type("password", page.getByLabel("Mot de passe"), account.password);
  await tally.click(page.getByRole("button", { name: "Se connecter", exact: true }));
  await expect(page).toHaveURL(/\/login\/code$/);
  const code = await tally.mailbox(() => latestCodeFor(page.request, account.email));
  await tally.type("code", page.getByLabel("Code à 6 chiffres"), code);
  await tally.click(page.getByRole("button", { name: "Valider le code" }));
  await expectSignedIn(page);
  return tally.done();
}

/** « Sign in » with the passkey alone: the sign-in page's passkey button, the phone's unlock, signed in. */
async function signInWithPasskey(page: Page): Promise<Run> {
  const tally = new Tally(page);
  await openSignIn(page);
  await tally.unlock(page.getByRole("button", { name: "Se connecter avec une clé d’accès" }));
  await expectSignedIn(page);
  return tally.done();
}

/** « Sign in » with the password, then the passkey as the second factor instead of the code. */
async function signInWithPasswordAndPasskey(page: Page, account: TestAccount): Promise<Run> {
  const tally = new Tally(page);
  await openSignIn(page);
  await tally.type("email", page.getByLabel("Adresse e-mail"), account.email);
  await tally.type("password", page.getByLabel("Mot de passe"), account.password);
  await tally.click(page.getByRole("button", { name: "Se connecter", exact: true }));
  await expect(page).toHaveURL(/\/login\/code$/);
  await tally.unlock(page.getByRole("button", { name: "Utiliser ma clé d’accès" }));
  await expectSignedIn(page);
  return tally.done();
}

/** A passkey way against the code's: fewer steps, fewer keystrokes, no mailbox, and no code in the outbox. */
async function expectFaster(page: Page, passkey: Effort, code: Effort, email: string, subject: string) {
  expect(passkey.mailboxTrips).toBe(0);
  expect(passkey.steps).toBeLessThan(code.steps);
  expect(passkey.keystrokes).toBeLessThan(code.keystrokes);
  await expect(latestCodeFor(page.request, email, subject)).rejects.toThrow(/no code/);
}

const ONE_CARD = { cards: [{ type: "physical" as const, lastFour: "4242" }] };

test("« show my PIN »: the steps and time with a code, and with a passkey", async ({
  page,
  makeAccount,
  signInAs,
  e2eDatabase,
}) => {
  test.setTimeout(120_000);
  const code = await measure(async () => {
    const account = await makeAccount(ONE_CARD);
    await signInAs(page, account);
    return showPinWithCode(page, account);
  });
  if (!jsOn()) return record("showPin", { code });
  const account = await makeAccount(ONE_CARD);
  await seedPasskey(page, account, e2eDatabase.handle.db);
  await signInAs(page, account);
  const passkey = await measure(() => showPinWithPasskey(page, account));
  record("showPin", { code, passkey });
  await expectFaster(page, passkey, code, account.email, REVEAL_SUBJECT);
});

test("« sign in »: the steps and time with a code, with the passkey alone, and with the password and a passkey", async ({
  page,
  makeAccount,
  e2eDatabase,
}) => {
  test.setTimeout(120_000);
  const code = await measure(async () => signInWithCode(page, await makeAccount(ONE_CARD)));
  if (!jsOn()) return record("signIn", { code });
  // One account with one passkey: the only one the virtual authenticator holds, so the discoverable sign-in finds it.
  const account = await makeAccount(ONE_CARD);
  await seedPasskey(page, account, e2eDatabase.handle.db);
  const passkey = await measure(() => signInWithPasskey(page));
  const passwordAndPasskey = await measure(() => signInWithPasswordAndPasskey(page, account));
  record("signIn", { code, passkey, passwordAndPasskey });
  await expectFaster(page, passkey, code, account.email, SIGN_IN_SUBJECT);
  await expectFaster(page, passwordAndPasskey, code, account.email, SIGN_IN_SUBJECT);
});
