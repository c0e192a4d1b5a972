import { addCalendarDays, addWorkingDays } from "../../../domain/calendar";
import { todayInParis } from "../../../domain/dates";
import { hashPassword } from "../../passwords";
import type { DatabaseHandle } from "../index";
import { buildAllowance, buildCard, buildGroup, buildLicence, buildRefund, buildUser, buildWallet } from "../factories";
import { DEMO_PASSWORD } from "../seed";
import type { BulkWriter } from "./bulk";
import { Ledger, writeDeposit, writePayment, type GeneratedLimit, type LedgerWallet } from "./ledger";
import { IdMaker, Random } from "./random";
import { dayAttempts, dayFacts, ParisClock, TYPICAL, type DayFacts } from "./shops";
import type { CompanyOptions } from "./index";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const COMPANY_NAME = "Acme Industries";
export const COMPANY_DOMAIN = "acme-industries.example";

/** Every feature the demo's funder gives marie: refunds and allowances of every kind. */
const FEATURES = JSON.stringify({
  integrations: {},
  allowances: { any: true, carpooling: true, bicycle: true, subscription: true },
  expenseRequests: { any: true },
});

const FIRST_NAMES = ["Camille", "Léa", "Hugo", "Louis", "Chloé", "Jules", "Inès", "Lucas", "Manon", "Nathan", "Emma"];
const LAST_NAMES = [
  "Martin",
  "Bernard",
  "Thomas",
  "Petit",
  "Robert",
  "Richard",
  "Durand",
  "Dubois",
  "Moreau",
  "Laurent",
];

/** What every employee's generation shares. */
interface Company {
  writer: BulkWriter;
  ids: IdMaker;
  random: Random;
  clock: ParisClock;
  groupId: string;
  passwordHash: string;
  /** The refund types paid from the mobility wallet, by id and French name. */
  mobilityType: { id: string; name: string };
  /** Every day of the history, oldest first. */
  days: DayFacts[];
  /** Notifications from this instant on are left unread. */
  unreadFrom: number;
  now: Date;
}

/** The funder, then each employee with the whole of their history, written in batches as they are made. */
export async function writeCompany(
  handle: DatabaseHandle,
  writer: BulkWriter,
  options: CompanyOptions,
): Promise<string> {
  const type = await handle.db
    .selectFrom("expense_types")
    .select(["id", "name_fr"])
    .where("technical_name", "=", "mobility")
    .executeTakeFirst();
  if (!type) throw new Error("generateCompany: the demo's expense types are missing (seed the demo first)");
  const ids = new IdMaker(`c${options.seed.toString(36)}.`);
  const group = buildGroup({
    id: ids.next("grp"),
    name: COMPANY_NAME,
    address_line1: "40 avenue Tony Garnier",
    address_zipcode: "69007",
    address_city: "Lyon",
  });
  writer.add("groups", group);
  const company: Company = {
    writer,
    ids,
    random: new Random(options.seed),
    clock: new ParisClock(),
    groupId: group.id,
    passwordHash: await hashPassword(DEMO_PASSWORD),
    mobilityType: { id: type.id, name: type.name_fr },
    days: historyDays(options.now, options.months),
    unreadFrom: options.now.getTime() - 3 * DAY,
    now: options.now,
  };
  for (let index = 1; index <= options.employees; index += 1) {
    writeEmployee(company, index);
    await writer.maybeFlush();
    if (index % 1000 === 0) options.log?.(`generateCompany: ${index} employees`);
  }
  return group.id;
}

/** The days from the first of the month `months - 1` months before this one to yesterday (Paris). */
function historyDays(now: Date, months: number): DayFacts[] {
  const today = todayInParis(now);
  const [year, month] = today.split("-").map(Number) as [number, number];
  const first = new Date(Date.UTC(year, month - months, 1)).toISOString().slice(0, 10);
  const days: DayFacts[] = [];
  for (let day = first; day < today; day = addCalendarDays(day, 1)) days.push(dayFacts(day));
  return days;
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** One employee: account, membership, card, three wallets and their links and licences, then the history. */
function writeEmployee(company: Company, index: number): void {
  const { writer, ids, random, groupId } = company;
  const firstDay = company.days[0]!.day;
  const createdAt = company.clock.at(addCalendarDays(firstDay, -random.int(7, 60)), 9 * 60).toISOString();
  const iban = `FR76300060000${pad(index, 11)}${pad(random.int(0, 99), 2)}`;
  const user = buildUser({
    id: ids.next("usr"),
    email: `e${pad(index, 6)}@${COMPANY_DOMAIN}`,
    password_hash: company.passwordHash,
    first_name: random.pick(FIRST_NAMES),
    last_name: random.pick(LAST_NAMES),
    phone: `+336${pad(index, 8)}`,
    address_line1: `${random.int(1, 120)} rue Garibaldi`,
    address_zipcode: "69003",
    address_city: "Lyon",
    address_country: "FR",
    terms_confirmed_at: createdAt,
    features: FEATURES,
    payout_iban: iban,
    created_at: createdAt,
  });
  writer.add("users", user);
  writer.add("memberships", { user_id: user.id, group_id: groupId });
  const card = buildCard(
    {
      id: ids.next("card"),
      user_id: user.id,
      group_id: groupId,
      type: "physical",
      last_four: pad(random.int(0, 9999), 4),
      issuer_ref: ids.next("iss"),
      pin_can_update: 1,
      shipping_status: "delivered",
      shipping_eta: firstDay,
      created_at: createdAt,
    },
    { line1: user.address_line1!, zipcode: "69003", city: "Lyon", country: "FR" },
  );
  writer.add("cards", card);
  const wallets = employeeWallets(company, user.id, createdAt);
  wallets.forEach((wallet, position) =>
    writer.add("card_wallets", { card_id: card.id, wallet_id: wallet.id, position }),
  );
  writer.add("licences", { ...buildLicence(groupId, user.id, "physical_card", createdAt), id: ids.next("lic") });
  for (const wallet of wallets) {
    const licence = buildLicence(groupId, user.id, "wallet_activation", createdAt, wallet.type);
    writer.add("licences", { ...licence, id: ids.next("lic") });
  }
  writeHistory(company, { userId: user.id, cardId: card.id, iban }, new Ledger(wallets));
  writeFunds(company, wallets);
}

/** Titres-restaurant (25 € a day), Mobilité (a yearly credit of 600 €), Cadeaux de Noël: as marie's. */
function employeeWallets(company: Company, userId: string, createdAt: string): LedgerWallet[] {
  const base = { user_id: userId, group_id: company.groupId, source_name: COMPANY_NAME };
  const at = (minutes: number) => new Date(Date.parse(createdAt) + minutes * 60_000).toISOString();
  const rows = [
    buildWallet({
      ...base,
      name: "Titres-restaurant",
      wallet_type: "meal",
      daily_spending_limit: 2500,
      created_at: at(0),
    }),
    buildWallet({ ...base, name: "Mobilité", wallet_type: "mobility", auto_extend_deposit: 1, created_at: at(1) }),
    buildWallet({
      ...base,
      name: "Cadeaux de Noël",
      wallet_type: "gift",
      subtype: "employee_christmas",
      created_at: at(2),
    }),
  ];
  const years = new Set(company.days.map((d) => Number(d.day.slice(0, 4))));
  years.add(Number(todayInParis(company.now).slice(0, 4)));
  return rows.map((row) => {
    const id = company.ids.next("wal");
    company.writer.add("wallets", { ...row, id });
    const creditLimits: GeneratedLimit[] =
      row.wallet_type !== "mobility"
        ? []
        : [...years].map((year) => ({
            id: company.ids.next("cl"),
            initial: 60000,
            remainingAmount: 60000,
            creditStartedAt: `${year - 1}-12-31T23:00:00.000Z`,
            creditEndedAt: `${year}-12-31T22:59:59.999Z`,
          }));
    return {
      id,
      name: row.name,
      type: row.wallet_type,
      unlimited: false,
      balances: [],
      creditLimits,
      held: 0,
      dailyLimit: row.daily_spending_limit,
      perTransactionLimit: null,
      zeroLimitDay: null,
      spentToday: 0,
      funderAllowsSundays: false,
    };
  });
}

interface Employee {
  userId: string;
  cardId: string;
  iban: string;
}

/**
 * Day after day: the funder's deposits (titres-restaurant on the 1st, valid until the end of next February; the
 * Christmas gift on 1 December, valid until 30 June), the card payments the engine decides, now and then a refund
 * request paid from the mobility wallet and, once in the history, an allowance for carpooling.
 */
function writeHistory(company: Company, employee: Employee, ledger: Ledger): void {
  const { writer, ids, random, clock } = company;
  const [meal, , gift] = ledger.wallets as [LedgerWallet, LedgerWallet, LedgerWallet];
  const later = new Map<string, (() => void)[]>();
  const allowanceMonth = random.chance(0.3) ? random.int(0, company.days.length - 1) : -1;
  company.days.forEach((facts, dayIndex) => {
    const { day } = facts;
    for (const action of later.get(day) ?? []) action();
    if (day.endsWith("-01")) {
      const year = Number(day.slice(0, 4));
      deposit(company, employee, ledger, meal, day, 18000, `${year + 1}-02-28`);
      if (day.slice(5, 7) === "12") deposit(company, employee, ledger, gift, day, 15000, `${year + 1}-06-30`);
    }
    for (const planned of dayAttempts(random, facts, TYPICAL)) {
      const attempt = { ...planned, day, at: clock.at(day, planned.minutes) };
      const readAfter = attempt.at.getTime() >= company.unreadFrom ? null : 3 * HOUR;
      writePayment(writer, ids, employee, attempt, ledger.decide(attempt), readAfter);
    }
    if (random.chance(0.0025)) refundRequest(company, employee, ledger, day, later);
    if (dayIndex === allowanceMonth) allowance(company, employee, day);
  });
}

function deposit(
  company: Company,
  employee: Employee,
  ledger: Ledger,
  wallet: LedgerWallet,
  day: string,
  amount: number,
  endDate: string,
): void {
  wallet.balances.push({ id: company.ids.next("bal"), balance: amount, deposit: amount, startDate: day, endDate });
  const at = company.clock.at(day, 7 * 60);
  const owner = { userId: employee.userId, walletId: wallet.id, walletName: wallet.name };
  const balanceAfter = ledger.available(wallet.id, day) ?? amount;
  const readAfter = at.getTime() >= company.unreadFrom ? null : 5 * HOUR;
  writeDeposit(company.writer, company.ids, owner, { amount, at, endDate, balanceAfter }, readAfter);
}

/** Each balance and credit limit as the payments left it (what the wallet pages show today). */
function writeFunds(company: Company, wallets: LedgerWallet[]): void {
  for (const wallet of wallets) {
    for (const b of wallet.balances) {
      company.writer.add("wallet_balances", {
        id: b.id,
        wallet_id: wallet.id,
        balance: b.balance,
        deposit_amount: b.deposit,
        start_date: b.startDate,
        end_date: b.endDate,
      });
    }
    for (const c of wallet.creditLimits) {
      company.writer.add("credit_limits", {
        id: c.id,
        wallet_id: wallet.id,
        initial_amount: c.initial,
        remaining_amount: c.remainingAmount,
        eligibility_started_at: c.creditStartedAt,
        eligibility_ended_at: c.creditEndedAt,
        credit_started_at: c.creditStartedAt,
        credit_ended_at: c.creditEndedAt,
      });
    }
  }
}

/**
 * A request's or an allowance's notification, as the portal records one when its state changes: read six hours
 * later unless it came after `unreadFrom` (the recent ones stay unread).
 */
function notifyEmployee(
  company: Company,
  employee: Employee,
  type: string,
  dataId: string,
  at: string,
  facts: string,
): void {
  company.writer.add("notifications", {
    id: company.ids.next("ntf"),
    user_id: employee.userId,
    type,
    data_id: dataId,
    created_at: at,
    read_at: Date.parse(at) >= company.unreadFrom ? null : new Date(Date.parse(at) + 6 * HOUR).toISOString(),
    facts,
  });
}

/**
 * A refund request of a transport expense paid from the mobility wallet, as the refunds service writes it: sent
 * with its split and the amount held on the wallet; a request of the last three weeks still awaits the funder;
 * an older one was, seven working days after it was sent, approved and paid (the hold captured: the wallet's
 * `expense_request` movement, the payout paid), refused or cancelled (the hold released). Each change leaves its
 * notification with the request's facts then.
 */
function refundRequest(
  company: Company,
  employee: Employee,
  ledger: Ledger,
  day: string,
  later: Map<string, (() => void)[]>,
): void {
  const { writer, ids, random } = company;
  const mobility = ledger.wallets[1]!;
  const amount = random.int(300, 1600) * 5;
  if ((ledger.available(mobility.id, day) ?? 0) < amount) return;
  const createdAt = company.clock.at(day, random.int(9 * 60, 21 * 60)).toISOString();
  const decidedDay = addWorkingDays(day, 7);
  const waiting = decidedDay >= todayInParis(company.now);
  const outcome = waiting ? "sent" : random.pick(["paid", "paid", "paid", "paid", "refused", "cancelled"] as const);
  const request = buildRefund({
    id: ids.next("exr"),
    user_id: employee.userId,
    type_id: company.mobilityType.id,
    amount,
    iban: employee.iban,
    ticket_date: addCalendarDays(day, -random.int(0, 20)),
    status: outcome,
    is_cancellable: outcome === "sent" ? 1 : 0,
    created_at: createdAt,
    refusal_reason: outcome === "refused" ? "Le justificatif ne montre pas le montant payé." : null,
    payout_date: outcome === "paid" ? decidedDay : null,
    sworn_name: null,
    updated_at: createdAt,
  });
  writer.add("expense_requests", request);
  writer.add("expense_request_payment_methods", {
    id: ids.next("erpm"),
    request_id: request.id,
    wallet_id: mobility.id,
    amount,
    position: 0,
  });
  const reservation = { id: ids.next("wres"), wallet_id: mobility.id, expense_request_id: request.id, amount };
  const facts = (status: string) =>
    JSON.stringify({
      amount,
      amountToRefund: amount,
      expenseType: company.mobilityType.name,
      partner: null,
      reason: status === "refused" ? request.refusal_reason : null,
      payoutDate: status === "paid" ? decidedDay : null,
    });
  const notify = (event: string, at: string, status: string) =>
    notifyEmployee(company, employee, `expense_request_${event}_notification`, request.id, at, facts(status));
  notify("created", createdAt, "sent");
  if (outcome === "sent") {
    ledger.hold(mobility.id, amount);
    writer.add("wallet_reservations", { ...reservation, status: "held", created_at: createdAt, settled_at: null });
    return;
  }
  const decidedAt = company.clock.at(decidedDay, 10 * 60).toISOString();
  writer.add("wallet_reservations", {
    ...reservation,
    status: outcome === "paid" ? "captured" : "released",
    created_at: createdAt,
    settled_at: outcome === "cancelled" ? createdAt : decidedAt,
  });
  if (outcome !== "paid") {
    notify(outcome, outcome === "cancelled" ? createdAt : decidedAt, outcome);
    return;
  }
  ledger.hold(mobility.id, amount);
  const capture = () => {
    ledger.hold(mobility.id, -amount);
    ledger.take(mobility.id, amount, decidedDay);
  };
  later.set(decidedDay, [...(later.get(decidedDay) ?? []), capture]);
  writer.add("wallet_transactions", {
    id: ids.next("wtx"),
    wallet_id: mobility.id,
    amount: -amount,
    main_comment: "expense_request",
    merchant_name: null,
    status: "processed",
    created_at: decidedAt,
    authorization_id: null,
  });
  writer.add("payouts", {
    id: ids.next("pay"),
    user_id: employee.userId,
    expense_request_id: request.id,
    amount,
    iban: employee.iban,
    scheduled_for: decidedDay,
    status: "paid",
    created_at: decidedAt,
    paid_at: decidedAt,
  });
  notify("approved", decidedAt, "approved");
  notify("finished", decidedAt, "paid");
}

/**
 * A carpooling allowance for the month before `day`, signed on `day`: the funder's rate (0,25 €/km) on a
 * commute of 5 to 25 km for 8 to 16 days at the office. A recent one awaits the funder; an older one was paid
 * (its payout in the next month) or, now and then, refused.
 */
function allowance(company: Company, employee: Employee, day: string): void {
  const { writer, ids, random } = company;
  const meters = random.int(5, 25) * 1000;
  const days = random.int(8, 16);
  const amount = Math.min(60000, Math.round((meters * 2 * days * 25) / 1000));
  const start = addCalendarDays(day, -30);
  const createdAt = company.clock.at(day, 19 * 60).toISOString();
  const decidedDay = addWorkingDays(day, 10);
  const waiting = decidedDay >= todayInParis(company.now);
  const status = waiting ? "sent" : random.chance(0.9) ? "paid" : "refused";
  const decidedAt = company.clock.at(decidedDay, 11 * 60).toISOString();
  const row = buildAllowance({
    id: ids.next("alw"),
    user_id: employee.userId,
    group_id: company.groupId,
    status,
    amount,
    iban: employee.iban,
    days_at_office: days,
    start_at: start,
    ends_at: day,
    is_cancellable: status === "sent" ? 1 : 0,
    created_at: createdAt,
    monthly_amount: amount,
    distance_estimate_m: meters,
    amount_before_cap: amount,
    signed_at: day,
    refusal_reason: status === "refused" ? "La distance déclarée ne correspond pas au trajet." : null,
    decided_at: waiting ? null : decidedAt,
    updated_at: waiting ? createdAt : decidedAt,
  });
  writer.add("allowances", row);
  const facts = (reason: string | null) =>
    JSON.stringify({ allowanceType: "carpooling", amount, startAt: start, endsAt: day, reason });
  const notify = (event: string, at: string, reason: string | null) =>
    notifyEmployee(company, employee, `allowance_${event}_notification`, row.id, at, facts(reason));
  notify("created", createdAt, null);
  if (status === "refused") notify("refused", decidedAt, row.refusal_reason);
  if (status !== "paid") return;
  writer.add("allowance_payouts", {
    id: ids.next("alp"),
    allowance_id: row.id,
    user_id: employee.userId,
    month: decidedDay.slice(0, 7),
    amount,
    iban: employee.iban,
    scheduled_for: decidedDay,
    status: "paid",
    created_at: decidedAt,
    paid_at: decidedAt,
  });
  notify("finished", decidedAt, null);
}
