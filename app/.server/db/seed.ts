import { clampDays, daysWithoutSundays, remainingCap, simulateDistance } from "../../domain/allowances";
import { addCalendarDays } from "../../domain/calendar";
import { capture } from "../services/authorisation-lifecycle";
import { authorise } from "../services/authorisations";
import { parisDayAfter } from "../../domain/dates";
import type { SandboxCardInput } from "../providers/issuer/sandbox";
import type { ShippingStatus } from "../providers/issuer/port";
import { newId } from "../ids";
import { hashPassword } from "../passwords";
import type { Messenger, OutgoingMessage } from "../providers/messaging/port";
import { issueCode } from "../services/codes";
import { contactChangeSubject } from "../services/profile";
import { hashSecret, newSecretToken } from "../tokens";
import type { DB } from "./index";
import { MARIE_PAYMENTS, parisInstantOf, planPayments, type PlannedPayment, type WalletRole } from "./seed-payments";
import { demoNotificationFacts } from "./seed-notifications";
import {
  buildAllowance,
  buildCard,
  buildCreditCard,
  buildGroup,
  buildLicence,
  buildRefund,
  buildPartner,
  buildUser,
  buildWallet,
  buildWalletBalance,
  buildWalletTransaction,
  createPendingChange,
  linkWallets,
  type Address,
} from "./factories";
import type { CardTable, NotificationTable, PartnerTable, UserTable, WalletTable } from "./schema";

/**
 * The demo world of shared/DEMO.md, created on an empty database in sandbox mode (and by
 * `npm run db:reset`). End-to-end tests and reviewers rely on every fact listed there, so change
 * this file only to add data. Ids are random: find things by e-mail, last four digits or name.
 */

export const DEMO_PASSWORD = "Demo-Portail-2026!";

export const DEMO_EMAILS = {
  marie: "marie.martin@example.com",
  lucas: "lucas.bernard@example.com",
  claire: "claire.petit@example.com",
  paul: "paul.durand@example.com",
  nina: "nina.roux@example.com",
  sophie: "sophie.leroy@example.com",
} as const;

/** Paul's phone change waiting for its code (DEMO.md). */
export const PAUL_PENDING_PHONE = "+33700000001";

/** Activation links stay valid this long (the invitation e-mail says so). */
export const ACTIVATION_TTL_DAYS = 7;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export async function isDatabaseEmpty(db: DB): Promise<boolean> {
  const user = await db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  return user === undefined;
}

export interface SeedOptions {
  now: Date;
  /** Origin of the links in e-mails, e.g. http://localhost:3000. */
  baseUrl: string;
}

export async function seedDemo(db: DB, messenger: Messenger, options: SeedOptions): Promise<void> {
  // Hashing is deliberately slow: do it once, and before the transaction so no lock is held meanwhile.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const activationToken = newSecretToken();
  const clock = new Clock(options.now);

  const users = await db.transaction().execute(async (trx) => {
    const groups = await seedGroups(trx);
    const users = await seedUsers(trx, clock, passwordHash);
    await seedMemberships(trx, users, groups);
    const catalogue = await seedCatalogue(trx);
    await seedMarie(trx, clock, users.marie, groups, catalogue);
    await seedLucas(trx, users.lucas, groups);
    await seedClaire(trx, clock, users.claire, groups);
    await seedPaul(trx, clock, users.paul, groups);
    await seedNinaInvitation(trx, clock, users.nina, activationToken);
    return users;
  });

  // Sent only once the data is committed: a rolled-back seed must not leave an e-mail whose link
  // points at nothing (and the sandbox messenger writes through its own connection, not `trx`).
  await messenger.send(activationMessage(options.baseUrl, activationToken));
  // Paul's new number is awaiting its code: the code the portal sent is in the outbox.
  await sendPendingPhoneCode(db, messenger, users.paul, PAUL_PENDING_PHONE, options.now);
}

/** The code of a phone change waiting for it, sent as the portal sends it (the row comes from createPendingChange). */
export async function sendPendingPhoneCode(
  db: DB,
  messenger: Messenger,
  userId: string,
  phone: string,
  now: Date,
): Promise<void> {
  await issueCode(
    db,
    messenger,
    {
      subject: contactChangeSubject(userId, "phone"),
      channel: "sms",
      destination: phone,
      message: {
        subject: "Confirmez votre nouveau numéro",
        text: (code) => `Votre code de confirmation : ${code}. Il est valable 1 heure.`,
      },
    },
    { now },
  );
}

/** Instants and calendar days relative to the moment the seed runs, so the data never goes stale. */
class Clock {
  constructor(readonly now: Date) {}

  /** ISO instant `ms` milliseconds from now (negative: in the past). */
  at(ms: number): string {
    return new Date(this.now.getTime() + ms).toISOString();
  }

  /** The Paris calendar day `days` from today (D+5 = `day(5)`), as YYYY-MM-DD. */
  day(days: number): string {
    return parisDayAfter(this.now, days);
  }

  /** The Paris calendar year of today. */
  year(): number {
    return Number(this.day(0).slice(0, 4));
  }
}

// ---------------------------------------------------------------------------------------------
// Groups, users, memberships
// ---------------------------------------------------------------------------------------------

interface Groups {
  acme: string;
  cse: string;
}

async function seedGroups(db: DB): Promise<Groups> {
  const groups: Groups = { acme: newId("grp"), cse: newId("grp") };
  await db
    .insertInto("groups")
    .values([
      buildGroup({
        id: groups.acme,
        name: "Acme France",
        can_issue: 1,
        cards_brand: "visa",
        address_line1: "12 rue de la Paix",
        address_zipcode: "75002",
        address_city: "Paris",
        address_country: "FR",
        // DEMO.md: 0,25 €/km for bicycle and carpooling, 600 € a year, subscriptions at 50 %.
        mobility_rate_per_km: 25,
        mobility_yearly_cap: 60000,
        subscription_share_percent: 50,
      }),
      buildGroup({
        id: groups.cse,
        name: "CSE Acme",
        can_issue: 1,
        cards_brand: "visa",
        address_line1: "3 avenue Foch",
        address_zipcode: "69006",
        address_city: "Lyon",
        address_country: "FR",
        // DEMO.md: the same mileage policy, subscriptions at 75 % (allowed until 31 December 2026).
        mobility_rate_per_km: 25,
        mobility_yearly_cap: 60000,
        subscription_share_percent: 75,
      }),
    ])
    .execute();
  return groups;
}

interface Users {
  marie: string;
  lucas: string;
  claire: string;
  paul: string;
  nina: string;
  sophie: string;
}

/** Every feature on: spec 000 §2 (integrations page) and 001 §3 (allowances, expense requests). */
const MARIE_FEATURES = {
  integrations: {
    uggy: true,
    "uggy-vouchers": true,
    rosaly: true,
    joko: true,
    klaro: true,
    "decathlon-integrations": true,
    "decathlon-intranet": true,
    "decathlon-myPeopleDoc": true,
    "decathlon-winchapps": true,
  },
  allowances: { any: true, carpooling: true, bicycle: true, subscription: true },
  expenseRequests: { any: true, "mobility-electric-vehicle-recharge": true, "fuel-expenses": true },
};

async function seedUsers(db: DB, clock: Clock, passwordHash: string): Promise<Users> {
  const users: Users = {
    marie: newId("usr"),
    lucas: newId("usr"),
    claire: newId("usr"),
    paul: newId("usr"),
    nina: newId("usr"),
    sophie: newId("usr"),
  };
  await db
    .insertInto("users")
    .values([
      marieUser(clock, {
        id: users.marie,
        email: DEMO_EMAILS.marie,
        password_hash: passwordHash,
        processor_customer_ref: "scus_demo_marie",
      }),
      // A newcomer: signing in leads to onboarding (no names, phone, terms or card).
      buildUser({
        id: users.lucas,
        email: DEMO_EMAILS.lucas,
        password_hash: passwordHash,
        created_at: clock.at(-3 * DAY),
      }),
      buildUser({
        id: users.claire,
        email: DEMO_EMAILS.claire,
        password_hash: passwordHash,
        first_name: "Claire",
        last_name: "Petit",
        phone: "+33611223344",
        address_line1: "14 rue Oberkampf",
        address_zipcode: "75011",
        address_city: "Paris",
        address_country: "FR",
        terms_confirmed_at: clock.at(-500 * DAY + HOUR),
        permissions: JSON.stringify(["manageGroups", "bypassMFA"]),
        created_at: clock.at(-500 * DAY),
      }),
      // No MFA and no bypassMFA: the portal requires him to set it up.
      buildUser({
        id: users.paul,
        email: DEMO_EMAILS.paul,
        password_hash: passwordHash,
        first_name: "Paul",
        last_name: "Durand",
        phone: "+33698765432",
        address_line1: "27 boulevard Voltaire",
        address_zipcode: "75011",
        address_city: "Paris",
        address_country: "FR",
        terms_confirmed_at: clock.at(-300 * DAY + HOUR),
        created_at: clock.at(-300 * DAY),
      }),
      // Given a temporary password (the demo one) by her employer: she chooses her own at first sign-in.
      buildUser({
        id: users.sophie,
        email: DEMO_EMAILS.sophie,
        password_hash: passwordHash,
        password_change_required: 1,
        created_at: clock.at(-2 * DAY),
      }),
      // Invited, not activated: no password until the activation link is used.
      buildUser({
        id: users.nina,
        email: DEMO_EMAILS.nina,
        status: "invited",
        created_at: clock.at(-1 * HOUR),
      }),
    ])
    .execute();
  return users;
}

/** Marie's user row: the richest account, every feature on. */
function marieUser(
  clock: Clock,
  fields: Pick<UserTable, "id" | "email" | "password_hash" | "processor_customer_ref">,
): UserTable {
  return buildUser({
    ...fields,
    first_name: "Marie",
    last_name: "Martin",
    phone: "+33612345678",
    address_line1: "8 rue des Lilas",
    address_zipcode: "69003",
    address_city: "Lyon",
    address_country: "FR",
    terms_confirmed_at: clock.at(-400 * DAY + HOUR),
    mfa_enabled: 1,
    mfa_preferred: "EMAIL",
    features: JSON.stringify(MARIE_FEATURES),
    balance_overflow_authorized: 5000,
    // Her requests pay the account ending 0189: the profile holds it (decision 0054).
    payout_iban: MARIE_IBAN,
    created_at: clock.at(-400 * DAY),
  });
}

/**
 * A copy of marie in a database the demo is already in: her whole world (cards, wallets and their history,
 * saved cards, licences, refunds, allowance, the 20 notifications) under another e-mail, in her two employers.
 * For the journeys that change marie's data (tests/e2e/fixtures.ts `makeMarie`): each works on its own copy,
 * so the journeys run alone and in any order, and the demo's marie stays as DEMO.md says. Answers the user id.
 */
export async function seedMarieCopy(
  db: DB,
  options: { email: string; passwordHash: string; now: Date },
): Promise<string> {
  const clock = new Clock(options.now);
  return db.transaction().execute(async (trx) => {
    const memberships = await trx
      .selectFrom("memberships as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .innerJoin("groups as g", "g.id", "m.group_id")
      .select(["g.id", "g.name"])
      .where("u.email", "=", DEMO_EMAILS.marie)
      .execute();
    const groupNamed = (name: string) => {
      const group = memberships.find((g) => g.name === name);
      if (!group) throw new Error(`seedMarieCopy: the demo's marie is not in ${name}`);
      return group.id;
    };
    const groups: Groups = { acme: groupNamed("Acme France"), cse: groupNamed("CSE Acme") };
    const catalogue: Catalogue = { types: {}, partners: {} };
    for (const t of await trx.selectFrom("expense_types").select(["id", "technical_name"]).execute())
      catalogue.types[t.technical_name] = t.id;
    // The demo's shops, by name (a journey's own shop of the same name would serve as well).
    const names = PARTNERS.map((p) => p.name_fr);
    for (const p of await trx.selectFrom("partners").select(["id", "name_fr"]).where("name_fr", "in", names).execute())
      catalogue.partners[p.name_fr] ??= p.id;
    const userId = newId("usr");
    await trx
      .insertInto("users")
      .values(
        marieUser(clock, {
          id: userId,
          email: options.email,
          password_hash: options.passwordHash,
          processor_customer_ref: `scus_${userId}`,
        }),
      )
      .execute();
    await trx
      .insertInto("memberships")
      .values([
        { user_id: userId, group_id: groups.acme },
        { user_id: userId, group_id: groups.cse },
      ])
      .execute();
    await seedMarie(trx, clock, userId, groups, catalogue);
    return userId;
  });
}

async function seedMemberships(db: DB, users: Users, groups: Groups): Promise<void> {
  await db
    .insertInto("memberships")
    .values([
      { user_id: users.marie, group_id: groups.acme },
      { user_id: users.marie, group_id: groups.cse },
      { user_id: users.lucas, group_id: groups.acme },
      { user_id: users.claire, group_id: groups.acme },
      { user_id: users.paul, group_id: groups.acme },
      { user_id: users.nina, group_id: groups.acme },
      { user_id: users.sophie, group_id: groups.acme },
    ])
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Catalogue: expense types and partner shops
// ---------------------------------------------------------------------------------------------

interface Catalogue {
  /** Expense type id by technical name. */
  types: Record<string, string>;
  /** Partner id by French name. */
  partners: Record<string, string>;
}

/** Meal is shown disabled and listed last (spec 001 §2.6): hence front_disabled and the highest position. */
const EXPENSE_TYPES = [
  { technical_name: "gift", name_fr: "Cadeaux", name_en: "Gifts", name_nl: "Geschenken", front_disabled: 0 },
  { technical_name: "culture", name_fr: "Culture", name_en: "Culture", name_nl: "Cultuur", front_disabled: 0 },
  { technical_name: "sport", name_fr: "Sport", name_en: "Sport", name_nl: "Sport", front_disabled: 0 },
  { technical_name: "holidays", name_fr: "Vacances", name_en: "Holidays", name_nl: "Vakantie", front_disabled: 0 },
  { technical_name: "mobility", name_fr: "Mobilité", name_en: "Mobility", name_nl: "Mobiliteit", front_disabled: 0 },
  {
    technical_name: "fuel_expenses",
    name_fr: "Frais de carburant",
    name_en: "Fuel expenses",
    name_nl: "Brandstofkosten",
    front_disabled: 0,
  },
  { technical_name: "meal", name_fr: "Repas", name_en: "Meals", name_nl: "Maaltijden", front_disabled: 1 },
];

type PartnerSeed = Omit<
  PartnerTable,
  | "id"
  | "name_en"
  | "name_nl"
  | "country"
  | "enabled"
  | "disabled_reason"
  | "search_text"
  | "latitude"
  | "longitude"
  | "located_at"
> &
  Partial<Pick<PartnerTable, "name_en" | "name_nl" | "disabled_reason">>;

/**
 * Shop names are proper names, the same in every language unless a translation is given. Each shop has
 * the ISO 18245 category its card payments carry (restaurants 5812, bakeries 5462, book shops 5942…):
 * the store locator lists it for the wallets allowed to pay there; it locates them on its first search.
 */
const PARTNERS: PartnerSeed[] = [
  {
    name_fr: "Le Bistrot des Halles",
    line1: "102 cours Lafayette",
    zipcode: "69003",
    city: "Lyon",
    category_code: "5812",
  },
  {
    name_fr: "Boulangerie Pain & Co",
    line1: "47 rue Paul Bert",
    zipcode: "69003",
    city: "Lyon",
    category_code: "5462",
  },
  {
    name_fr: "Le Comptoir Lyonnais",
    line1: "6 place des Jacobins",
    zipcode: "69002",
    city: "Lyon",
    category_code: "5812",
  },
  { name_fr: "Brasserie du Rhône", line1: "20 quai Augagneur", zipcode: "69003", city: "Lyon", category_code: "5812" },
  { name_fr: "Sakura Sushi", line1: "9 rue Mercière", zipcode: "69002", city: "Lyon", category_code: "5812" },
  { name_fr: "Le Petit Café", line1: "14 rue Mercière", zipcode: "69002", city: "Lyon", category_code: "5814" },
  {
    name_fr: "Primeur du Plateau",
    line1: "3 boulevard de la Croix-Rousse",
    zipcode: "69004",
    city: "Lyon",
    category_code: "5499",
  },
  {
    name_fr: "Librairie des Terreaux",
    line1: "12 rue d'Algérie",
    zipcode: "69001",
    city: "Lyon",
    category_code: "5942",
  },
  {
    name_fr: "Club Escalade Croix-Rousse",
    line1: "15 rue Dumenge",
    zipcode: "69004",
    city: "Lyon",
    category_code: "7997",
  },
  {
    name_fr: "Boutique Cadeaux Presqu'île",
    line1: "28 rue de la République",
    zipcode: "69002",
    city: "Lyon",
    category_code: "5947",
  },
  {
    name_fr: "Théâtre du Vieux-Lyon",
    line1: "5 rue Saint-Jean",
    zipcode: "69005",
    city: "Lyon",
    category_code: "7922",
  },
  {
    name_fr: "Atelier Poterie Saint-Georges",
    line1: "10 rue Saint-Georges",
    zipcode: "69005",
    city: "Lyon",
    category_code: "5970",
  },
  {
    name_fr: "Vélo Station Part-Dieu",
    line1: "17 boulevard Marius Vivier-Merle",
    zipcode: "69003",
    city: "Lyon",
    category_code: "5940",
  },
  {
    name_fr: "Recharge Express Gerland",
    line1: "300 avenue Jean Jaurès",
    zipcode: "69007",
    city: "Lyon",
    category_code: "5552",
  },
  {
    name_fr: "Librairie du Marais",
    line1: "18 rue des Francs-Bourgeois",
    zipcode: "75004",
    city: "Paris",
    category_code: "5942",
  },
  {
    name_fr: "Sport Plus République",
    line1: "5 place de la République",
    zipcode: "75003",
    city: "Paris",
    category_code: "5941",
  },
  {
    name_fr: "Fromagerie Lacroix",
    line1: "31 rue de Bretagne",
    zipcode: "75003",
    city: "Paris",
    category_code: "5451",
  },
  {
    name_fr: "Croisières du Vieux-Port",
    name_en: "Old Port Cruises",
    name_nl: "Rondvaarten Oude Haven",
    line1: "1 quai du Port",
    zipcode: "13002",
    city: "Marseille",
    category_code: "4411",
  },
  {
    name_fr: "Gîtes du Vercors",
    name_en: "Vercors Holiday Cottages",
    name_nl: "Vakantiehuizen Vercors",
    line1: "8 place de l'Église",
    zipcode: "38250",
    city: "Villard-de-Lans",
    category_code: "7011",
  },
  {
    name_fr: "Bouquinerie Bordelaise",
    line1: "22 rue Sainte-Catherine",
    zipcode: "33000",
    city: "Bordeaux",
    category_code: "5942",
  },
  { name_fr: "Aquasport Lille", line1: "45 rue Nationale", zipcode: "59000", city: "Lille", category_code: "7997" },
  {
    name_fr: "Cinéma Lumière Bellecour",
    line1: "12 rue de la Barre",
    zipcode: "69002",
    city: "Lyon",
    category_code: "7832",
  },
  {
    name_fr: "Station-service du Rhône",
    line1: "150 avenue Franklin Roosevelt",
    zipcode: "69120",
    city: "Vaulx-en-Velin",
    category_code: "5541",
    disabled_reason: "Ce partenaire n'accepte plus les paiements avec la carte avantages.",
  },
  {
    name_fr: "Cinéma Le Royal",
    line1: "4 rue de la Charité",
    zipcode: "69002",
    city: "Lyon",
    category_code: "7832",
    disabled_reason: "Établissement fermé définitivement.",
  },
];

async function seedCatalogue(db: DB): Promise<Catalogue> {
  const types: Record<string, string> = {};
  await db
    .insertInto("expense_types")
    .values(
      EXPENSE_TYPES.map((t, index) => {
        const id = newId("ext");
        types[t.technical_name] = id;
        return { id, ...t, position: index + 1 };
      }),
    )
    .execute();

  const partners: Record<string, string> = {};
  await db
    .insertInto("partners")
    .values(
      PARTNERS.map((p) => {
        const row = buildPartner({ ...p, country: "FR" });
        partners[p.name_fr] = row.id;
        return row;
      }),
    )
    .execute();
  return { types, partners };
}

function partnerId(catalogue: Catalogue, name: string): string {
  const id = catalogue.partners[name];
  if (!id) throw new Error(`Unknown demo partner ${name}`);
  return id;
}

function typeId(catalogue: Catalogue, technicalName: string): string {
  const id = catalogue.types[technicalName];
  if (!id) throw new Error(`Unknown demo expense type ${technicalName}`);
  return id;
}

// ---------------------------------------------------------------------------------------------
// Addresses (the rows come from factories.ts)
// ---------------------------------------------------------------------------------------------

/** A valid French IBAN (RIB key included) for marie's refunds; only its last 4 are ever shown. */
const MARIE_IBAN = "FR7630006000011234567890189";

const MARIE_ADDRESS: Address = { line1: "8 rue des Lilas", zipcode: "69003", city: "Lyon", country: "FR" };
const PAUL_ADDRESS: Address = { line1: "27 boulevard Voltaire", zipcode: "75011", city: "Paris", country: "FR" };

// ---------------------------------------------------------------------------------------------
// Marie: the full account
// ---------------------------------------------------------------------------------------------

interface MarieCards {
  main: CardTable;
  cse: CardTable;
  virtual: CardTable;
}

interface MarieWallets {
  meal: WalletTable;
  mobility: WalletTable;
  gift: WalletTable;
  culture: WalletTable;
}

async function seedMarie(db: DB, clock: Clock, userId: string, groups: Groups, catalogue: Catalogue): Promise<void> {
  const payments = planPayments(MARIE_PAYMENTS, clock.now);
  const cards = await seedMarieCards(db, clock, userId, groups);
  const wallets = await seedMarieWallets(db, clock, userId, groups, payments);
  await linkWallets(db, cards.main.id, [wallets.meal.id, wallets.mobility.id, wallets.gift.id]);
  // A single wallet on purpose: the priority panel then shows its "fewer than 2 wallets" warning.
  await linkWallets(db, cards.virtual.id, [wallets.meal.id]);
  await linkWallets(db, cards.cse.id, [wallets.culture.id, wallets.gift.id]);

  // The default saved card takes the overflow of the payments below.
  await seedMarieCreditCards(db, clock, userId);
  const authorizations = await seedMarieAuthorizations(db, cards.main.id, wallets, payments);
  await seedMarieLicences(db, userId, groups, cards, wallets);
  const requests = await seedMarieRefunds(db, clock, userId, catalogue, wallets);
  const allowanceId = await seedMarieAllowance(db, clock, userId, groups);
  await seedMarieNotifications(db, clock, userId, { cards, wallets, authorizations, requests, allowanceId });
}

async function seedMarieCards(db: DB, clock: Clock, userId: string, groups: Groups): Promise<MarieCards> {
  // created_at sets the card order: 4242 comes first, so /cards opens it.
  const cards: MarieCards = {
    main: buildCard(
      {
        user_id: userId,
        group_id: groups.acme,
        type: "physical",
        last_four: "4242",
        pin_can_update: 1,
        shipping_status: "delivered",
        shipping_eta: clock.day(-193),
        created_at: clock.at(-200 * DAY),
      },
      MARIE_ADDRESS,
    ),
    virtual: buildCard({
      user_id: userId,
      group_id: groups.acme,
      type: "virtual",
      last_four: "5556",
      created_at: clock.at(-60 * DAY),
    }),
    cse: buildCard(
      {
        user_id: userId,
        group_id: groups.cse,
        type: "physical",
        last_four: "1881",
        shipping_status: "shipped",
        shipping_eta: clock.day(5),
        created_at: clock.at(-2 * DAY),
      },
      MARIE_ADDRESS,
    ),
  };
  await db.insertInto("cards").values([cards.main, cards.virtual, cards.cse]).execute();
  return cards;
}

async function seedMarieWallets(
  db: DB,
  clock: Clock,
  userId: string,
  groups: Groups,
  payments: PlannedPayment[],
): Promise<MarieWallets> {
  const acme = { user_id: userId, group_id: groups.acme, source_name: "Acme France" };
  const cse = { user_id: userId, group_id: groups.cse, source_name: "CSE Acme" };
  // created_at sets the order of the wallets page.
  const wallets: MarieWallets = {
    meal: buildWallet({
      ...acme,
      name: "Titres-restaurant",
      wallet_type: "meal",
      daily_spending_limit: 2500,
      created_at: clock.at(-200 * DAY),
    }),
    mobility: buildWallet({
      ...acme,
      name: "Mobilité",
      wallet_type: "mobility",
      auto_extend_deposit: 1,
      created_at: clock.at(-199 * DAY),
    }),
    gift: buildWallet({
      ...cse,
      name: "Cadeaux de Noël",
      wallet_type: "gift",
      subtype: "employee_christmas",
      created_at: clock.at(-198 * DAY),
    }),
    culture: buildWallet({
      ...cse,
      name: "Culture",
      wallet_type: "culture",
      unlimited: 1,
      created_at: clock.at(-197 * DAY),
    }),
  };
  await db.insertInto("wallets").values(Object.values(wallets)).execute();

  // The deposits the payments below are made from; the engine then brings each wallet to DEMO.md's figures.
  // Titres-restaurant: 270,00 € loaded two days before the first meal; nine meals (117,60 €) leave 152,40 €.
  const mealDays = payments.filter((p) => p.rule === "meal").map((p) => p.day);
  const mealLoaded = addCalendarDays(mealDays[mealDays.length - 1]!, -2);
  // Cadeaux de Noël: loaded the day after the Sunday decline, 155,00 € ending D+20 and 80,00 € ending D+200;
  // the gift shop (35,00 €) takes from the one ending first, leaving 120,00 € and 80,00 €.
  const giftLoaded = addCalendarDays(payments.find((p) => p.giftLoadedAfter)!.day, 1);
  const deposits = [
    { wallet: wallets.meal.id, amount: 27000, start: mealLoaded, end: clock.day(340), time: "08:00" },
    { wallet: wallets.gift.id, amount: 15500, start: giftLoaded, end: clock.day(20), time: "08:00" },
    { wallet: wallets.gift.id, amount: 8000, start: giftLoaded, end: clock.day(200), time: "08:05" },
  ];
  await db
    .insertInto("wallet_balances")
    .values(
      deposits.map((d) =>
        buildWalletBalance({
          wallet_id: d.wallet,
          balance: d.amount,
          deposit_amount: d.amount,
          start_date: d.start,
          end_date: d.end,
        }),
      ),
    )
    .execute();
  await db
    .insertInto("wallet_transactions")
    .values(
      deposits.map((d) =>
        buildWalletTransaction(d.wallet, d.amount, parisInstantOf(d.start, d.time).toISOString(), null),
      ),
    )
    .execute();

  // Mobilité: a yearly credit limit of 600,00 €, 420,00 € left once this year's card payments are captured. The
  // calendar year in Paris time: January and December are always UTC+1 there. A limit opens on the day its
  // start instant falls in UTC (31 December), as `walletBalance` reads it.
  const year = clock.year();
  const limitOf = (y: number) => ({
    start: `${y - 1}-12-31T23:00:00.000Z`,
    end: `${y}-12-31T22:59:59.999Z`,
    firstDay: `${y - 1}-12-31`,
  });
  const current = limitOf(year);
  const mobilityPayments = payments.filter((p) => p.expect.kind !== "declined" && p.expect.split.mobility > 0);
  const capturedThisYear = mobilityPayments
    .filter((p) => p.expect.kind === "captured" && p.day >= current.firstDay)
    .reduce((sum, p) => sum + p.amount, 0);
  const limits = [{ ...current, remaining: 42000 + capturedThisYear }];
  // Early in January, some of the history is last year's: paid from last year's limit.
  if (mobilityPayments.some((p) => p.day < current.firstDay)) limits.push({ ...limitOf(year - 1), remaining: 60000 });
  for (const limit of limits) {
    await db
      .insertInto("credit_limits")
      .values({
        id: newId("cl"),
        wallet_id: wallets.mobility.id,
        initial_amount: 60000,
        remaining_amount: limit.remaining,
        eligibility_started_at: limit.start,
        eligibility_ended_at: limit.end,
        credit_started_at: limit.start,
        credit_ended_at: limit.end,
      })
      .execute();
  }
  return wallets;
}

interface MarieCreditCards {
  defaultId: string;
}

async function seedMarieCreditCards(db: DB, clock: Clock, userId: string): Promise<MarieCreditCards> {
  const year = clock.year();
  const visa = buildCreditCard({
    user_id: userId,
    brand: "visa",
    last4: "4444",
    exp_month: 9,
    exp_year: year + 2,
    is_default: 1,
    created_at: clock.at(-90 * DAY),
  });
  const mastercard = buildCreditCard({
    user_id: userId,
    brand: "mastercard",
    last4: "5454",
    exp_month: 3,
    exp_year: year + 3,
    is_default: 0,
    created_at: clock.at(-30 * DAY),
  });
  await db.insertInto("credit_cards").values([visa, mastercard]).execute();
  return { defaultId: visa.id };
}

interface MarieAuthorizations {
  /** Newest first. */
  approved: string[];
  declined: string[];
}

/**
 * Card •••• 4242's payments (`MARIE_PAYMENTS`), decided by the authorisation engine on their planned day and
 * written by it: approvals hold their amounts, then the merchant captures them (the two frozen ones stay held);
 * declines are recorded with the engine's reason. What the processor and the issuer say afterwards is theirs to
 * write: the failed charge of the overflow (registered with the sandbox processor by `registerDemoPayments`, so
 * "Relancer le paiement" works) and the payment the issuer lets her move onto other wallets.
 */
async function seedMarieAuthorizations(
  db: DB,
  cardId: string,
  wallets: MarieWallets,
  payments: PlannedPayment[],
): Promise<MarieAuthorizations> {
  const deps = { db };
  const role = new Map<string, WalletRole>([
    [wallets.meal.id, "meal"],
    [wallets.mobility.id, "mobility"],
    [wallets.gift.id, "gift"],
  ]);
  const ids: MarieAuthorizations = { approved: [], declined: [] };
  for (const payment of payments) {
    const result = await authorise(deps, {
      card: { id: cardId },
      amount: payment.amount,
      currency: "EUR",
      merchant: { name: payment.merchant, city: payment.city, country: "FR", categoryCode: payment.categoryCode },
      at: payment.at,
      entryMode: payment.entryMode,
      pinCheck: payment.entryMode === "chip_and_pin" ? "match" : undefined,
    });
    const expected = payment.expect;
    const problem = (got: unknown) =>
      new Error(`Demo payment at ${payment.merchant} on ${payment.day}: the engine answered ${JSON.stringify(got)}`);
    if (expected.kind === "declined") {
      if (result.kind !== "declined" || result.code !== expected.code || !result.authorizationId) throw problem(result);
      ids.declined.push(result.authorizationId);
      continue;
    }
    if (result.kind !== "approved") throw problem(result);
    const split: Record<WalletRole, number> = { meal: 0, mobility: 0, gift: 0 };
    for (const part of result.split) split[role.get(part.walletId)!] += part.amount;
    const overflow = expected.kind === "captured" ? (expected.overflow ?? 0) : 0;
    if (JSON.stringify(split) !== JSON.stringify(expected.split) || result.overflow !== overflow) throw problem(result);
    if (expected.kind === "held") continue;

    const captured = await capture(deps, result.authorizationId, payment.amount);
    if (captured.kind !== "captured") throw problem(captured);
    ids.approved.push(result.authorizationId);
    if (payment.overflowFailed && result.overflowPayment) {
      await db
        .updateTable("payment_intents")
        .set({ latest_status: "payment_failed", processor_ref: newId("spi") })
        .where("id", "=", result.overflowPayment.paymentIntentId)
        .execute();
    }
    if (payment.switchableTo) {
      await db
        .updateTable("card_authorizations")
        .set({ can_switch_payment_methods: 1, scopes: JSON.stringify(payment.switchableTo) })
        .where("id", "=", result.authorizationId)
        .execute();
    }
  }
  return ids;
}

async function seedMarieLicences(
  db: DB,
  userId: string,
  groups: Groups,
  cards: MarieCards,
  wallets: MarieWallets,
): Promise<void> {
  await db
    .insertInto("licences")
    .values([
      // Still available (used_at null): what the create-card and create-wallet screens offer.
      buildLicence(groups.acme, userId, "virtual_card", null),
      buildLicence(groups.cse, userId, "physical_card", null),
      buildLicence(groups.acme, userId, "wallet_activation", null, "mobility"),
      // Already used by her cards and wallets.
      buildLicence(groups.acme, userId, "physical_card", cards.main.created_at),
      buildLicence(groups.acme, userId, "virtual_card", cards.virtual.created_at),
      buildLicence(groups.cse, userId, "physical_card", cards.cse.created_at),
      buildLicence(groups.acme, userId, "wallet_activation", wallets.meal.created_at, "meal"),
      buildLicence(groups.acme, userId, "wallet_activation", wallets.mobility.created_at, "mobility"),
      buildLicence(groups.cse, userId, "wallet_activation", wallets.gift.created_at, "gift"),
      buildLicence(groups.cse, userId, "wallet_activation", wallets.culture.created_at, "culture"),
    ])
    .execute();
}

interface MarieRequests {
  inProgress: string[];
  finished: string[];
}

async function seedMarieRefunds(
  db: DB,
  clock: Clock,
  userId: string,
  catalogue: Catalogue,
  wallets: MarieWallets,
): Promise<MarieRequests> {
  // One way to make a request row (factories.ts): the fields below are the demo's, the rest its defaults.
  const base = { user_id: userId, iban: MARIE_IBAN };
  const correctable = buildRefund({
    ...base,
    type_id: typeId(catalogue, "culture"),
    partner_id: partnerId(catalogue, "Librairie des Terreaux"),
    amount: 4590,
    amount_to_refund: 4590,
    ticket_date: clock.day(-6),
    status: "to_correct",
    is_rectifiable: 1,
    is_cancellable: 0,
    correction_reason: "Le justificatif est illisible : envoyez une photo nette du ticket.",
    created_at: clock.at(-5 * DAY - 4 * HOUR),
  });
  const cancellable = buildRefund({
    ...base,
    // Culture, so that it holds its amount on marie's Culture wallet (cancelling it releases it there).
    type_id: typeId(catalogue, "culture"),
    partner_id: partnerId(catalogue, "Théâtre du Vieux-Lyon"),
    amount: 12000,
    amount_to_refund: 12000,
    ticket_date: clock.day(-3),
    status: "sent",
    is_rectifiable: 0,
    is_cancellable: 1,
    created_at: clock.at(-2 * DAY - 6 * HOUR),
  });
  const finished = buildRefund({
    ...base,
    type_id: typeId(catalogue, "holidays"),
    partner_id: partnerId(catalogue, "Gîtes du Vercors"),
    amount: 35000,
    amount_to_refund: 30000,
    fees: 150,
    ticket_date: clock.day(-42),
    status: "paid",
    is_rectifiable: 0,
    is_cancellable: 0,
    payout_date: clock.day(-30),
    sworn_name: "Marie Martin",
    created_at: clock.at(-40 * DAY - 2 * HOUR),
  });
  await db.insertInto("expense_requests").values([correctable, cancellable, finished]).execute();
  // The two requests in progress are paid from the Culture wallet and hold their amounts on it until reviewed.
  for (const request of [correctable, cancellable]) {
    await db
      .insertInto("expense_request_payment_methods")
      .values({
        id: newId("erpm"),
        request_id: request.id,
        wallet_id: wallets.culture.id,
        amount: request.amount,
        position: 0,
      })
      .execute();
    await db
      .insertInto("wallet_reservations")
      .values({
        id: newId("wres"),
        wallet_id: wallets.culture.id,
        expense_request_id: request.id,
        amount: request.amount,
        status: "held",
        created_at: request.created_at,
        settled_at: null,
      })
      .execute();
  }
  return { inProgress: [correctable.id, cancellable.id], finished: [finished.id] };
}

/** Marie's commute, 8 rue des Lilas 69003 Lyon → 3 avenue Foch 69006 Lyon: about 3,3 km one way by road. */
const MARIE_COMMUTE_METERS = 3300;

/**
 * Marie's carpooling allowance with CSE Acme, sent and waiting for the funder: a past period of the
 * current year (up to 8 weeks, ending on the day she signed), three days at the office a week, its
 * figures computed by the rules the wizard uses (domain/allowances.ts) so that the list explains them
 * and her yearly cap counts it (spec 001 §3; issue 15).
 */
async function seedMarieAllowance(db: DB, clock: Clock, userId: string, groups: Groups): Promise<string> {
  const id = newId("alw");
  const yearStart = `${clock.year()}-01-01`;
  // Signed 12 days ago, or today in the first days of January (the period stays in the current year).
  const twelveDaysAgo = clock.day(-12);
  const signedAt = twelveDaysAgo < yearStart ? clock.day(0) : twelveDaysAgo;
  const createdAt = twelveDaysAgo < yearStart ? clock.at(0) : clock.at(-12 * DAY);
  const eightWeeksBefore = addCalendarDays(signedAt, -55);
  const start = eightWeeksBefore < yearStart ? yearStart : eightWeeksBefore;
  const days = clampDays(24, daysWithoutSundays(start, signedAt));
  const group = await db
    .selectFrom("groups")
    .select(["mobility_rate_per_km", "mobility_yearly_cap"])
    .where("id", "=", groups.cse)
    .executeTakeFirstOrThrow();
  const figures = simulateDistance({
    oneWayMeters: MARIE_COMMUTE_METERS,
    daysAtOffice: days,
    ratePerKm: group.mobility_rate_per_km,
    capRemaining: remainingCap({
      groupCap: group.mobility_yearly_cap,
      usedWithGroup: 0,
      usedAllGroups: 0,
      transportShares: 0,
    }),
    start,
    end: signedAt,
  });
  await db
    .insertInto("allowances")
    .values(
      buildAllowance({
        id,
        user_id: userId,
        group_id: groups.cse,
        amount: figures.allowance,
        days_at_office: days,
        start_at: start,
        ends_at: signedAt,
        // One string each, as the allowance request sends them (spec 001 §3).
        home_address: "8 rue des Lilas 69003 Lyon FR",
        work_address: "3 avenue Foch 69006 Lyon FR",
        created_at: createdAt,
        monthly_amount: figures.perMonth,
        number_of_months: figures.numberOfMonths,
        rate_per_km: group.mobility_rate_per_km,
        distance_estimate_m: MARIE_COMMUTE_METERS,
        amount_before_cap: figures.allowanceBeforeCap,
        cap_remaining_before: figures.capRemainingBefore,
        signed_at: signedAt,
        updated_at: createdAt,
      }),
    )
    .execute();
  return id;
}

interface NotificationRefs {
  cards: MarieCards;
  wallets: MarieWallets;
  authorizations: MarieAuthorizations;
  requests: MarieRequests;
  allowanceId: string;
}

/**
 * 20 notifications, 16 unread (the 4 oldest are read): every type the spec gives a route to
 * (card created, wallet expiring, wallet reloaded) plus the ones its preferences name
 * (authorization approved or declined, expense requests) and allowances.
 */
async function seedMarieNotifications(db: DB, clock: Clock, userId: string, refs: NotificationRefs): Promise<void> {
  const { cards, wallets, authorizations: auth, requests } = refs;
  const entries: [type: string, dataId: string | undefined][] = [
    ["card_authorization_approved_notification", auth.approved[0]],
    ["card_created_to_user_notification", cards.cse.id],
    ["card_authorization_approved_notification", auth.approved[1]],
    ["card_authorization_declined_notification", auth.declined[0]],
    ["expense_request_created_notification", requests.inProgress[1]],
    ["card_authorization_approved_notification", auth.approved[2]],
    ["expense_request_rectification_needed_notification", requests.inProgress[0]],
    ["card_authorization_declined_notification", auth.declined[1]],
    ["wallet_expire_in_notification", wallets.gift.id],
    ["allowance_created_notification", refs.allowanceId],
    ["card_authorization_declined_notification", auth.declined[2]],
    ["wallet_reload_notification", wallets.meal.id],
    ["card_authorization_approved_notification", auth.approved[3]],
    ["wallet_expire_in_notification", wallets.meal.id],
    ["wallet_reload_notification", wallets.gift.id],
    ["expense_request_finished_notification", requests.finished[0]],
    // Read: the four oldest.
    ["wallet_reload_notification", wallets.mobility.id],
    ["wallet_expire_in_notification", wallets.gift.id],
    ["card_created_to_user_notification", cards.virtual.id],
    ["card_created_to_user_notification", cards.main.id],
  ];
  const unread = 16;
  const rows: NotificationTable[] = [];
  for (const [index, [type, dataId]] of entries.entries()) {
    // Newest first, about a day and a half apart, never at the same instant.
    const createdAt = clock.at(-(index * 36 * HOUR + 45 * MINUTE));
    // What each says happened (issue 30 §4), from the demo's own rows.
    const facts = dataId ? await demoNotificationFacts(db, userId, type, dataId, clock.now) : null;
    rows.push({
      id: newId("ntf"),
      user_id: userId,
      type,
      data_id: dataId ?? null,
      created_at: createdAt,
      read_at: index < unread ? null : new Date(new Date(createdAt).getTime() + 2 * HOUR).toISOString(),
      facts: facts ? JSON.stringify(facts) : null,
    });
  }
  await db.insertInto("notifications").values(rows).execute();
}

// ---------------------------------------------------------------------------------------------
// Lucas, Claire, Paul, Nina
// ---------------------------------------------------------------------------------------------

/** The newcomer: no card yet, but Acme France gives him one physical and one virtual card licence. */
async function seedLucas(db: DB, userId: string, groups: Groups): Promise<void> {
  await db
    .insertInto("licences")
    .values([
      buildLicence(groups.acme, userId, "physical_card", null),
      buildLicence(groups.acme, userId, "virtual_card", null),
    ])
    .execute();
}

/** The manager: one virtual card, one wallet, every licence used. */
async function seedClaire(db: DB, clock: Clock, userId: string, groups: Groups): Promise<void> {
  const card = buildCard({
    user_id: userId,
    group_id: groups.acme,
    type: "virtual",
    last_four: "7777",
    created_at: clock.at(-480 * DAY),
  });
  await db.insertInto("cards").values(card).execute();

  const wallet = buildWallet({
    user_id: userId,
    group_id: groups.acme,
    source_name: "Acme France",
    name: "Titres-restaurant",
    wallet_type: "meal",
    daily_spending_limit: 2500,
    created_at: clock.at(-480 * DAY),
  });
  await db.insertInto("wallets").values(wallet).execute();
  await linkWallets(db, card.id, [wallet.id]);

  // 90,00 € loaded, 25,20 € spent: 64,80 € left.
  await db
    .insertInto("wallet_balances")
    .values(
      buildWalletBalance({
        wallet_id: wallet.id,
        balance: 6480,
        deposit_amount: 9000,
        start_date: clock.day(-20),
        end_date: clock.day(345),
      }),
    )
    .execute();
  await db
    .insertInto("wallet_transactions")
    .values([
      buildWalletTransaction(wallet.id, 9000, clock.at(-20 * DAY), null),
      buildWalletTransaction(wallet.id, -1320, clock.at(-8 * DAY - 3 * HOUR), "Brasserie Oberkampf"),
      buildWalletTransaction(wallet.id, -1200, clock.at(-6 * DAY - 5 * HOUR), "Boulangerie Saint-Maur"),
    ])
    .execute();

  await db
    .insertInto("licences")
    .values([
      buildLicence(groups.acme, userId, "virtual_card", card.created_at),
      buildLicence(groups.acme, userId, "wallet_activation", wallet.created_at, "meal"),
    ])
    .execute();
}

/** Things to fix: a phone change awaiting its code, and a frozen card still being prepared. */
async function seedPaul(db: DB, clock: Clock, userId: string, groups: Groups): Promise<void> {
  await createPendingChange(db, {
    user_id: userId,
    field_name: "phone",
    new_value: PAUL_PENDING_PHONE,
    created_at: clock.at(-2 * MINUTE),
  });

  const card = buildCard(
    {
      user_id: userId,
      group_id: groups.acme,
      type: "physical",
      last_four: "3005",
      frozen: 1,
      shipping_status: "submitted",
      created_at: clock.at(-6 * DAY),
    },
    PAUL_ADDRESS,
  );
  await db.insertInto("cards").values(card).execute();
  await db
    .insertInto("licences")
    .values(buildLicence(groups.acme, userId, "physical_card", card.created_at))
    .execute();
}

async function seedNinaInvitation(db: DB, clock: Clock, userId: string, token: string): Promise<void> {
  await createActivationToken(db, userId, token, clock.now);
}

/** Only the token's hash is stored; the token itself travels in the e-mail (`activationMessage`), sent after commit. */
export async function createActivationToken(db: DB, userId: string, token: string, now: Date): Promise<void> {
  await db
    .insertInto("action_tokens")
    .values({
      id: newId("tok"),
      user_id: userId,
      purpose: "activation",
      token_hash: hashSecret(token),
      expires_at: new Date(now.getTime() + ACTIVATION_TTL_DAYS * DAY).toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    })
    .execute();
}

/** The invitation e-mail, with its activation link. */
export function activationMessage(baseUrl: string, token: string, email: string = DEMO_EMAILS.nina): OutgoingMessage {
  const link = `${baseUrl.replace(/\/+$/, "")}/activate/${token}?email=${encodeURIComponent(email)}`;
  return {
    channel: "email",
    to: email,
    subject: "Activez votre compte avantages",
    text: [
      "Bonjour,",
      "",
      "Acme France vous invite à rejoindre le portail de vos avantages salariés.",
      `Pour activer votre compte et choisir votre mot de passe, ouvrez ce lien (valable ${ACTIVATION_TTL_DAYS} jours) :`,
      link,
      "",
      "Si vous n'attendiez pas cette invitation, vous pouvez ignorer ce message.",
    ].join("\n"),
  };
}

/** The demo PIN of every physical demo card (the sandbox issuer shows it in the reveal panel). */
export const DEMO_PIN = "1234";

/**
 * Tells the sandbox issuer about the demo cards (it keeps its own records, like a real issuer would):
 * same references, the demo PIN for physical cards, the same frozen and delivery states. Cards the
 * issuer already knows are left alone, so running it again (after an interrupted start) is harmless.
 */
export async function registerDemoCards(
  db: DB,
  issuer: { register(input: SandboxCardInput): Promise<void> },
  userId?: string,
): Promise<void> {
  const known = new Set(
    (await db.selectFrom("sandbox_issuer_cards").select("issuer_ref").execute()).map((c) => c.issuer_ref),
  );
  let query = db.selectFrom("cards").selectAll().orderBy("created_at");
  // One account's cards only (the test fixtures'): the app may be making other cards meanwhile.
  if (userId) query = query.where("user_id", "=", userId);
  const cards = await query.execute();
  for (const card of cards) {
    if (known.has(card.issuer_ref)) continue;
    await issuer.register({
      issuerRef: card.issuer_ref,
      lastFour: card.last_four,
      brand: card.brand,
      type: card.type === "virtual" ? "virtual" : "physical",
      pin: card.type === "physical" ? DEMO_PIN : undefined,
      frozen: card.frozen === 1,
      shipping: card.shipping_status
        ? { status: card.shipping_status as ShippingStatus, eta: card.shipping_eta }
        : null,
      createdAt: card.created_at,
    });
  }
}

/**
 * Tells the sandbox payment processor about the demo saved cards and overflow payments (same
 * references), under each owner's customer reference. Known references are left alone.
 */
export async function registerDemoPayments(
  db: DB,
  processor: {
    registerDemo(
      customerRef: string,
      cards: { ref: string; brand: string; last4: string; expMonth: number; expYear: number; createdAt: string }[],
      payments: { ref: string; amount: number; status: string; createdAt: string }[],
    ): Promise<void>;
  },
  userId?: string,
): Promise<void> {
  let ownersQuery = db
    .selectFrom("users")
    .select(["id", "processor_customer_ref"])
    .where("processor_customer_ref", "is not", null);
  if (userId) ownersQuery = ownersQuery.where("id", "=", userId);
  const owners = await ownersQuery.execute();
  for (const owner of owners) {
    const cards = await db
      .selectFrom("credit_cards")
      .selectAll()
      .where("user_id", "=", owner.id)
      .orderBy("created_at")
      .execute();
    const payments = await db
      .selectFrom("payment_intents")
      .innerJoin("card_authorizations", "card_authorizations.id", "payment_intents.authorization_id")
      .innerJoin("cards", "cards.id", "card_authorizations.card_id")
      .select([
        "payment_intents.processor_ref",
        "payment_intents.amount",
        "payment_intents.latest_status",
        "payment_intents.created_at",
      ])
      .where("cards.user_id", "=", owner.id)
      .where("payment_intents.processor_ref", "is not", null)
      .execute();
    await processor.registerDemo(
      owner.processor_customer_ref!,
      cards.map((c) => ({
        ref: c.processor_ref,
        brand: c.brand,
        last4: c.last4,
        expMonth: c.exp_month,
        expYear: c.exp_year,
        createdAt: c.created_at,
      })),
      payments.map((p) => ({
        ref: p.processor_ref!,
        amount: p.amount,
        status: p.latest_status,
        createdAt: p.created_at,
      })),
    );
  }
}
