import { describe, expect, test } from "vitest";
import {
  authorise,
  categoryEligible,
  MCC,
  readDeclineDetail,
  ruleAllowance,
  type AuthorisationInput,
  type WalletState,
} from "./authorisation";
import { authorisationInput, walletState } from "../../tests/support/authorisation-inputs";

/** Sunday 22 November 2026, 00:30 in Paris — still Saturday in UTC. */
const SUNDAY_JUST_AFTER_MIDNIGHT = new Date("2026-11-21T23:30:00Z");
/** Saturday 21 November 2026, 23:30 in Paris. */
const SATURDAY_LATE = new Date("2026-11-21T22:30:00Z");
/** Wednesday 11 November 2026 (Armistice), 13:00 in Paris. */
const ARMISTICE = new Date("2026-11-11T12:00:00Z");
/** Tuesday 5 January 2027, 13:00 in Paris: groceries are no longer allowed with titres-restaurant. */
const JANUARY_2027 = new Date("2027-01-05T12:00:00Z");

const RESTAURANT = { name: "Le Petit Café", city: "Lyon", country: "FR", categoryCode: "5812" };
const SUPERMARKET = { name: "Monoprix", city: "Paris", country: "FR", categoryCode: "5411" };
const FUEL = { name: "Total", city: "Paris", country: "FR", categoryCode: "5541" };
const BOOKSHOP = { name: "Librairie Mollat", city: "Bordeaux", country: "FR", categoryCode: "5942" };
const ATM = { name: "DAB", city: "Paris", country: "FR", categoryCode: "6011" };

const wallet = walletState;
const request = authorisationInput;

const declinedWith = (input: AuthorisationInput) => {
  const decision = authorise(input);
  return decision.kind === "declined" ? decision.code : null;
};

describe("merchant categories per wallet type", () => {
  const table: [string, string, boolean[]][] = [
    // category, name, [meal, mobility, culture, gift]
    ["5812", "restaurant", [true, false, false, true]],
    ["5814", "fast food", [true, false, false, true]],
    ["5462", "bakery", [true, false, false, true]],
    ["5411", "supermarket", [true, false, false, true]],
    ["4112", "railway", [false, true, false, true]],
    ["5541", "service station", [false, true, false, false]],
    ["5542", "fuel dispenser", [false, true, false, false]],
    ["5552", "charging", [false, true, false, true]],
    ["5940", "bicycle shop", [false, true, false, true]],
    ["5942", "bookshop", [false, false, true, true]],
    ["7832", "cinema", [false, false, true, true]],
    ["7922", "theatre", [false, false, true, true]],
    ["7991", "museum", [false, false, true, true]],
    ["6011", "cash machine", [false, false, false, false]],
    ["6051", "quasi-cash", [false, false, false, false]],
    ["5311", "department store", [false, false, false, true]],
  ];
  for (const [code, name, expected] of table) {
    test(`${name} (${code})`, () => {
      const got = ["meal", "mobility", "culture", "gift"].map((t) => categoryEligible(t, code, "2026-11-24"));
      expect(got).toEqual(expected);
    });
  }

  test("groceries with titres-restaurant until 31 December 2026 inclusive, not after", () => {
    expect(categoryEligible("meal", "5411", "2026-12-31")).toBe(true);
    expect(categoryEligible("meal", "5411", "2027-01-01")).toBe(false);
    expect(categoryEligible("meal", "5812", "2027-01-01")).toBe(true);
    expect(declinedWith(request({ merchant: SUPERMARKET, at: JANUARY_2027 }))).toBe("merchant_not_allowed");
    expect(authorise(request({ merchant: SUPERMARKET })).kind).toBe("approved");
  });

  test("a wallet type without rules pays nowhere; the codes are four digits", () => {
    expect(categoryEligible("sport", "5812", "2026-11-24")).toBe(false);
    for (const codes of [MCC.meal.always, MCC.meal.groceries, MCC.mobility, MCC.culture, MCC.gift.excluded]) {
      for (const c of codes) expect(c).toMatch(/^\d{4}$/);
    }
  });

  test("no linked wallet accepted here: declined, the merchant is not allowed", () => {
    expect(declinedWith(request({ merchant: FUEL }))).toBe("merchant_not_allowed");
    expect(declinedWith(request({ merchant: ATM, wallets: [wallet("gift", "gift", 10000)] }))).toBe(
      "merchant_not_allowed",
    );
  });
});

describe("the request and the card, checked first", () => {
  test("zero, negative, fractional or absurd amounts; malformed categories", () => {
    for (const amount of [0, -100, 12.5, Number.NaN, 1_000_001]) {
      expect(declinedWith(request({ amount }))).toBe("invalid_amount");
    }
    for (const categoryCode of ["581", "58122", "abcd", ""]) {
      expect(declinedWith(request({ merchant: { ...RESTAURANT, categoryCode } }))).toBe("invalid_merchant_category");
    }
  });

  test("blocked, frozen, not activated, PIN locked — in that order", () => {
    const card = { status: "blocked", frozen: true, activated: false, pinLocked: true, wrongPinCount: 3 };
    expect(declinedWith(request({ card }))).toBe("card_blocked");
    expect(declinedWith(request({ card: { ...card, status: "active" } }))).toBe("card_frozen");
    expect(declinedWith(request({ card: { ...card, status: "active", frozen: false } }))).toBe("card_not_activated");
    expect(declinedWith(request({ card: { ...card, status: "active", frozen: false, activated: true } }))).toBe(
      "pin_locked",
    );
  });

  test("the frozen card's sentence is the one the issue gives", () => {
    const decision = authorise(request({ card: { ...request().card, frozen: true } }));
    expect(decision).toEqual({
      kind: "declined",
      code: "card_frozen",
      pin: null,
      // Decided before the wallets: no figures, the short reason says it all.
      detail: null,
    });
  });

  test("a wrong PIN counts; the third locks it; a right PIN clears the count", () => {
    const chip = { entryMode: "chip_and_pin" as const, pinCheck: "mismatch" as const };
    const card = request().card;
    expect(authorise(request({ ...chip, card }))).toMatchObject({
      code: "incorrect_pin",
      pin: { wrongPinCount: 1, locked: false },
    });
    expect(authorise(request({ ...chip, card: { ...card, wrongPinCount: 2 } }))).toMatchObject({
      code: "pin_locked",
      pin: { wrongPinCount: 3, locked: true },
    });
    expect(
      authorise(request({ entryMode: "chip_and_pin", pinCheck: "match", card: { ...card, wrongPinCount: 2 } })),
    ).toMatchObject({ kind: "approved", pin: { wrongPinCount: 0, locked: false } });
    // Contactless and online payments carry no PIN: the counter does not move.
    expect(authorise(request({ entryMode: "contactless", pinCheck: "mismatch" }))).toMatchObject({
      kind: "approved",
      pin: null,
    });
  });

  test("a currency other than the euro is declined with its reason", () => {
    for (const currency of ["USD", "eur", "XXX", ""]) {
      expect(declinedWith(request({ currency }))).toBe("currency_not_supported");
    }
  });
});

describe("titres-restaurant: Sundays, public holidays, 25 € a day", () => {
  test("on a Sunday (Paris day, even when UTC still says Saturday): declined, and why", () => {
    const decision = authorise(request({ at: SUNDAY_JUST_AFTER_MIDNIGHT }));
    expect(decision).toMatchObject({
      kind: "declined",
      code: "meal_sunday",
    });
    expect(authorise(request({ at: SATURDAY_LATE })).kind).toBe("approved");
  });

  test("on a public holiday: declined; the funder's Sunday-worker exception allows both", () => {
    expect(declinedWith(request({ at: ARMISTICE }))).toBe("meal_public_holiday");
    expect(declinedWith(request({ at: new Date("2026-12-25T11:00:00Z") }))).toBe("meal_public_holiday");
    const allowed = [wallet("meal", "meal", 10000, { funderAllowsSundays: true })];
    expect(authorise(request({ at: ARMISTICE, wallets: allowed })).kind).toBe("approved");
    expect(authorise(request({ at: SUNDAY_JUST_AFTER_MIDNIGHT, wallets: allowed })).kind).toBe("approved");
  });

  test("on a Sunday the next wallet in order pays instead", () => {
    const wallets = [wallet("meal", "meal", 10000), wallet("gift", "gift", 10000)];
    expect(authorise(request({ at: SUNDAY_JUST_AFTER_MIDNIGHT, wallets }))).toEqual({
      kind: "approved",
      split: [{ walletId: "gift", amount: 1250 }],
      overflow: 0,
      pin: null,
    });
  });

  test("25 € a day across several payments and several meal wallets", () => {
    expect(authorise(request({ amount: 2500 })).kind).toBe("approved");
    expect(declinedWith(request({ amount: 2501 }))).toBe("meal_daily_cap");
    expect(declinedWith(request({ amount: 1300, mealSpentToday: 1250 }))).toBe("meal_daily_cap");
    expect(authorise(request({ amount: 1250, mealSpentToday: 1250 })).kind).toBe("approved");
    // Two meal wallets share the one daily cap.
    const two = [wallet("meal1", "meal", 1000), wallet("meal2", "meal", 10000)];
    expect(authorise(request({ amount: 2500, wallets: two, mealSpentToday: 0 }))).toMatchObject({
      split: [
        { walletId: "meal1", amount: 1000 },
        { walletId: "meal2", amount: 1500 },
      ],
    });
    // Each meal wallet paid a part (one its balance, the other what the 25 € left): the shortfall, not one rule.
    expect(declinedWith(request({ amount: 2600, wallets: two }))).toBe("insufficient_funds");
    expect(declinedWith(request({ amount: 2600, wallets: [wallet("meal2", "meal", 10000)] }))).toBe("meal_daily_cap");
  });

  test("30 € at a restaurant: 25 € from the meal wallet, the rest from the next eligible one", () => {
    const wallets = [
      wallet("meal", "meal", 10000),
      wallet("mobility", "mobility", 10000),
      wallet("gift", "gift", 10000),
    ];
    expect(authorise(request({ amount: 3000, wallets }))).toEqual({
      kind: "approved",
      split: [
        { walletId: "meal", amount: 2500 },
        { walletId: "gift", amount: 500 },
      ],
      overflow: 0,
      pin: null,
    });
  });
});

describe("wallet limits, balances and priority", () => {
  test("the card's priority order decides who pays first", () => {
    const meal = wallet("meal", "meal", 10000);
    const gift = wallet("gift", "gift", 10000);
    expect(authorise(request({ wallets: [gift, meal] }))).toMatchObject({
      split: [{ walletId: "gift", amount: 1250 }],
    });
    expect(authorise(request({ wallets: [meal, gift] }))).toMatchObject({
      split: [{ walletId: "meal", amount: 1250 }],
    });
  });

  test("only balances valid today count; what is held is not available", () => {
    const expired = wallet("culture", "culture", 0, {
      balances: [
        { balance: 5000, startDate: "2025-01-01", endDate: "2026-11-23" },
        { balance: 1000, startDate: "2026-11-24", endDate: "2026-12-31" },
        { balance: 7000, startDate: "2026-11-25", endDate: "2027-12-31" },
      ],
    });
    const input = request({ merchant: BOOKSHOP, wallets: [expired] });
    expect(authorise({ ...input, amount: 1000 }).kind).toBe("approved");
    expect(declinedWith({ ...input, amount: 1001 })).toBe("insufficient_funds");
    const held = { ...expired, held: 400 };
    expect(declinedWith({ ...input, wallets: [held], amount: 700 })).toBe("insufficient_funds");
    expect(authorise({ ...input, wallets: [held], amount: 600 }).kind).toBe("approved");
  });

  test("an unlimited wallet pays anything; an open credit limit counts instead of balances", () => {
    const unlimited = wallet("gift", "gift", 0, { unlimited: true });
    expect(authorise(request({ amount: 900_000, wallets: [unlimited] })).kind).toBe("approved");
    const credit = wallet("gift", "gift", 99999, {
      creditLimits: [{ remainingAmount: 2000, creditStartedAt: "2026-11-01", creditEndedAt: "2026-11-30" }],
    });
    expect(authorise(request({ amount: 2000, wallets: [credit] })).kind).toBe("approved");
    expect(declinedWith(request({ amount: 2001, wallets: [credit] }))).toBe("insufficient_funds");
  });

  test("per-day limit with today's spending, per-transaction limit, today zero", () => {
    const gift = (fields: Partial<WalletState>) => [wallet("gift", "gift", 100000, fields)];
    expect(declinedWith(request({ amount: 3000, wallets: gift({ dailyLimit: 5000, spentToday: 2500 }) }))).toBe(
      "daily_limit_exceeded",
    );
    expect(authorise(request({ amount: 2500, wallets: gift({ dailyLimit: 5000, spentToday: 2500 }) })).kind).toBe(
      "approved",
    );
    expect(declinedWith(request({ amount: 3000, wallets: gift({ perTransactionLimit: 2000 }) }))).toBe(
      "transaction_limit_exceeded",
    );
    expect(declinedWith(request({ wallets: gift({ zeroLimitDay: "2026-11-24" }) }))).toBe("today_zero_limit");
    expect(authorise(request({ wallets: gift({ zeroLimitDay: "2026-11-23" }) })).kind).toBe("approved");
  });

  test("a limit caps one wallet's part; the next wallet pays the rest", () => {
    const wallets = [wallet("gift1", "gift", 100000, { perTransactionLimit: 2000 }), wallet("gift2", "gift", 100000)];
    expect(authorise(request({ amount: 3000, wallets }))).toMatchObject({
      split: [
        { walletId: "gift1", amount: 2000 },
        { walletId: "gift2", amount: 1000 },
      ],
    });
  });
});

describe("overflow to the default saved card, all or nothing", () => {
  const card = { creditCardId: "cc_1", authorizedMax: 5000 };

  test("the remainder goes to the saved card up to the authorised maximum", () => {
    expect(authorise(request({ amount: 4000, wallets: [wallet("gift", "gift", 1000)], overflow: card }))).toEqual({
      kind: "approved",
      split: [{ walletId: "gift", amount: 1000 }],
      overflow: 3000,
      pin: null,
    });
    expect(authorise(request({ amount: 6000, wallets: [wallet("gift", "gift", 1000)], overflow: card }))).toMatchObject(
      { kind: "approved", overflow: 5000 },
    );
    expect(declinedWith(request({ amount: 6001, wallets: [wallet("gift", "gift", 1000)], overflow: card }))).toBe(
      "overflow_limit_exceeded",
    );
  });

  test("without a default saved card, or below 0,50 € authorised: declined, nothing taken", () => {
    const decision = authorise(
      request({ amount: 4000, wallets: [wallet("gift", "gift", 1000)], overflow: { ...card, creditCardId: null } }),
    );
    expect(decision).toEqual({
      kind: "declined",
      code: "insufficient_funds",
      pin: null,
      detail: {
        amount: 4000,
        wallets: [{ walletId: "gift", name: "gift", type: "gift", canPay: 1000, stop: "balance", limit: null }],
        overflow: { kind: "none" },
      },
    });
    expect(
      declinedWith(
        request({ amount: 1010, wallets: [wallet("gift", "gift", 1000)], overflow: { ...card, authorizedMax: 49 } }),
      ),
    ).toBe("insufficient_funds");
  });

  test("a remainder under 0,50 € is lifted to 0,50 €: the wallets give the difference back", () => {
    expect(authorise(request({ amount: 1030, wallets: [wallet("gift", "gift", 1000)], overflow: card }))).toEqual({
      kind: "approved",
      split: [{ walletId: "gift", amount: 980 }],
      overflow: 50,
      pin: null,
    });
    // The last paying wallet gives back first, then the one before it.
    const two = [wallet("a", "gift", 1000), wallet("b", "gift", 20)];
    expect(authorise(request({ amount: 1030, wallets: two, overflow: card }))).toMatchObject({
      split: [{ walletId: "a", amount: 980 }],
      overflow: 50,
    });
  });

  test("the saved card never pays a whole payment alone", () => {
    expect(declinedWith(request({ amount: 40, wallets: [wallet("gift", "gift", 10)], overflow: card }))).toBe(
      "insufficient_funds",
    );
    expect(declinedWith(request({ amount: 1000, wallets: [wallet("gift", "gift", 0)], overflow: card }))).toBe(
      "insufficient_funds",
    );
    expect(declinedWith(request({ amount: 1000, merchant: FUEL, overflow: card }))).toBe("merchant_not_allowed");
  });

  test("a meal rule stays the reason when the rest cannot be covered", () => {
    expect(declinedWith(request({ amount: 3000 }))).toBe("meal_daily_cap");
    expect(authorise(request({ amount: 3000, overflow: card }))).toMatchObject({
      kind: "approved",
      split: [{ walletId: "meal", amount: 2500 }],
      overflow: 500,
    });
    expect(declinedWith(request({ at: SUNDAY_JUST_AFTER_MIDNIGHT, overflow: card }))).toBe("meal_sunday");
  });
});

describe("what the rules let one wallet pay, its balance apart (the payment-method switch)", () => {
  const allow = (wallet: WalletState, fields: { day?: string; categoryCode?: string | null; meal?: number } = {}) =>
    ruleAllowance({
      amount: 3000,
      wallet,
      day: fields.day ?? "2026-11-24",
      categoryCode: fields.categoryCode === undefined ? "5812" : fields.categoryCode,
      mealSpentToday: fields.meal ?? 0,
    });

  test("titres-restaurant: the day's 25 € less what was paid, nothing on Sundays and holidays unless allowed", () => {
    const meal = wallet("meal", "meal", 1);
    expect(allow(meal)).toBe(2500);
    expect(allow(meal, { meal: 1500 })).toBe(1000);
    expect(allow(meal, { meal: 2600 })).toBe(0);
    expect(allow(meal, { day: "2026-11-22" })).toBe(0);
    expect(allow(meal, { day: "2026-11-11" })).toBe(0);
    expect(allow(wallet("meal", "meal", 1, { funderAllowsSundays: true }), { day: "2026-11-22" })).toBe(2500);
  });

  test("the category, today zero, the per-payment and daily limits; never more than the payment; no balance bound", () => {
    const gift = wallet("gift", "gift", 1);
    expect(allow(gift)).toBe(3000);
    expect(allow(gift, { categoryCode: "6011" })).toBe(0);
    expect(allow(wallet("mobility", "mobility", 1))).toBe(0);
    // A payment recorded without a category: the category is not checked, the day's rules are.
    expect(allow(wallet("mobility", "mobility", 1), { categoryCode: null })).toBe(3000);
    expect(allow(wallet("gift", "gift", 1, { zeroLimitDay: "2026-11-24" }))).toBe(0);
    expect(allow(wallet("gift", "gift", 1, { zeroLimitDay: "2026-11-23" }))).toBe(3000);
    expect(allow(wallet("gift", "gift", 1, { perTransactionLimit: 800 }))).toBe(800);
    expect(allow(wallet("gift", "gift", 1, { dailyLimit: 5000, spentToday: 4000 }))).toBe(1000);
    expect(allow(wallet("gift", "gift", 1, { dailyLimit: 5000, spentToday: 6000 }))).toBe(0);
  });
});

describe("a decline's detail: the amount asked, what each wallet and the saved card could pay, the binding cause", () => {
  const detailOf = (input: AuthorisationInput) => {
    const decision = authorise(input);
    if (decision.kind !== "declined") throw new Error(`approved: ${JSON.stringify(decision)}`);
    return { code: decision.code, detail: decision.detail };
  };
  const saved = { creditCardId: "cc_1", authorizedMax: 5000 };
  // Marie's card on the day: 14,20 € already paid at Chez Paul, so 10,80 € of the 25 € are left.
  const marie = [
    wallet("meal", "meal", 13820, { name: "Titres-restaurant" }),
    wallet("mobility", "mobility", 4200, { name: "Mobilité" }),
    wallet("gift", "gift", 25000, { name: "Cadeaux" }),
  ];

  test("420 € at a supermarket: several wallets paid a part, with the overflow they fall short — the shortfall, not the 25 €", () => {
    const { code, detail } = detailOf(
      request({ amount: 42000, merchant: SUPERMARKET, wallets: marie, mealSpentToday: 1420, overflow: saved }),
    );
    expect(code).toBe("overflow_limit_exceeded");
    expect(detail).toEqual({
      amount: 42000,
      wallets: [
        {
          walletId: "meal",
          name: "Titres-restaurant",
          type: "meal",
          canPay: 1080,
          stop: "meal_daily_cap",
          limit: null,
        },
        { walletId: "mobility", name: "Mobilité", type: "mobility", canPay: 0, stop: "category", limit: null },
        { walletId: "gift", name: "Cadeaux", type: "gift", canPay: 25000, stop: "balance", limit: null },
      ],
      overflow: { kind: "overMax", max: 5000, needed: 42000 - 26080 },
    });
    // Without a saved card: the same figures, the plain shortfall.
    expect(
      detailOf(request({ amount: 42000, merchant: SUPERMARKET, wallets: marie, mealSpentToday: 1420 })),
    ).toMatchObject({ code: "insufficient_funds", detail: { overflow: { kind: "none" } } });
  });

  test("one wallet stopped by the day's 25 €: that rule, with what it could still pay", () => {
    const { code, detail } = detailOf(request({ amount: 3000, mealSpentToday: 1420 }));
    expect(code).toBe("meal_daily_cap");
    expect(detail?.wallets).toEqual([
      { walletId: "meal", name: "meal", type: "meal", canPay: 1080, stop: "meal_daily_cap", limit: null },
    ]);
  });

  test("Sunday and public holiday: the rule, even beside an empty wallet; a wallet that paid a part makes it a shortfall", () => {
    const emptyGift = wallet("gift", "gift", 0);
    expect(
      detailOf(request({ at: SUNDAY_JUST_AFTER_MIDNIGHT, wallets: [wallet("meal", "meal", 10000), emptyGift] })),
    ).toMatchObject({
      code: "meal_sunday",
      detail: {
        wallets: [
          { walletId: "meal", canPay: 0, stop: "meal_sunday" },
          { walletId: "gift", canPay: 0, stop: "balance" },
        ],
        overflow: { kind: "none" },
      },
    });
    expect(detailOf(request({ at: ARMISTICE }))).toMatchObject({
      code: "meal_public_holiday",
      detail: { wallets: [{ canPay: 0, stop: "meal_public_holiday" }] },
    });
    const someGift = wallet("gift", "gift", 500);
    expect(detailOf(request({ at: ARMISTICE, wallets: [wallet("meal", "meal", 10000), someGift] }))).toMatchObject({
      code: "insufficient_funds",
      detail: {
        wallets: [
          { stop: "meal_public_holiday", canPay: 0 },
          { stop: "balance", canPay: 500 },
        ],
        overflow: { kind: "none" },
      },
    });
  });

  test("no wallet accepted at this category: merchant not allowed, each wallet said not accepted", () => {
    expect(detailOf(request({ merchant: ATM, wallets: marie, overflow: saved }))).toEqual({
      code: "merchant_not_allowed",
      detail: {
        amount: 1250,
        wallets: marie.map((w) => ({
          walletId: w.id,
          name: w.name,
          type: w.type,
          canPay: 0,
          stop: "category",
          limit: null,
        })),
        overflow: { kind: "alone" },
      },
    });
  });

  test("today zero, the per-payment and the daily limits, with the limit met", () => {
    const gift = (fields: Partial<WalletState>) => [wallet("gift", "gift", 100000, fields)];
    expect(detailOf(request({ wallets: gift({ zeroLimitDay: "2026-11-24" }) }))).toMatchObject({
      code: "today_zero_limit",
      detail: { wallets: [{ canPay: 0, stop: "today_zero_limit", limit: null }] },
    });
    expect(detailOf(request({ amount: 3000, wallets: gift({ perTransactionLimit: 2000 }) }))).toMatchObject({
      code: "transaction_limit_exceeded",
      detail: { wallets: [{ canPay: 2000, stop: "transaction_limit_exceeded", limit: 2000 }] },
    });
    expect(detailOf(request({ amount: 3000, wallets: gift({ dailyLimit: 5000, spentToday: 4000 }) }))).toMatchObject({
      code: "daily_limit_exceeded",
      detail: { wallets: [{ canPay: 1000, stop: "daily_limit_exceeded", limit: 5000 }] },
    });
    // Two wallets each at their own limit: two rules, the shortfall.
    const two = [
      wallet("a", "gift", 100000, { perTransactionLimit: 1000 }),
      wallet("b", "gift", 100000, { dailyLimit: 1000 }),
    ];
    expect(detailOf(request({ amount: 3000, wallets: two })).code).toBe("insufficient_funds");
  });

  test("every wallet empty: the shortfall at 0,00 €; the saved card never pays alone", () => {
    const empty = [wallet("meal", "meal", 0), wallet("gift", "gift", 0)];
    expect(detailOf(request({ wallets: empty, overflow: saved }))).toMatchObject({
      code: "insufficient_funds",
      detail: {
        amount: 1250,
        wallets: [
          { canPay: 0, stop: "balance" },
          { canPay: 0, stop: "balance" },
        ],
        overflow: { kind: "alone" },
      },
    });
  });

  test("the saved card: absent, its maximum under 0,50 €, lifted to 0,50 € it would pay it all, over its maximum", () => {
    const gift = [wallet("gift", "gift", 1000)];
    expect(detailOf(request({ amount: 4000, wallets: gift })).detail?.overflow).toEqual({ kind: "none" });
    expect(
      detailOf(request({ amount: 1010, wallets: gift, overflow: { ...saved, authorizedMax: 20 } })).detail?.overflow,
    ).toEqual({ kind: "belowMinimum", max: 20 });
    expect(
      detailOf(request({ amount: 40, wallets: [wallet("gift", "gift", 10)], overflow: saved })).detail?.overflow,
    ).toEqual({ kind: "minimum", needed: 50 });
    expect(detailOf(request({ amount: 6001, wallets: gift, overflow: saved }))).toMatchObject({
      code: "overflow_limit_exceeded",
      detail: { overflow: { kind: "overMax", max: 5000, needed: 5001 } },
    });
  });

  test("a decline before the wallets (frozen card, wrong PIN, currency) carries no figures", () => {
    const card = request().card;
    expect(authorise(request({ card: { ...card, frozen: true } }))).toMatchObject({
      code: "card_frozen",
      detail: null,
    });
    expect(authorise(request({ entryMode: "chip_and_pin", pinCheck: "mismatch" }))).toMatchObject({
      code: "incorrect_pin",
      detail: null,
    });
    expect(authorise(request({ currency: "USD" }))).toMatchObject({ detail: null });
  });

  test("the stored detail reads back; anything else is null, never an error", () => {
    const { detail } = detailOf(
      request({ amount: 42000, merchant: SUPERMARKET, wallets: marie, mealSpentToday: 1420, overflow: saved }),
    );
    expect(readDeclineDetail(JSON.stringify(detail))).toEqual(detail);
    expect(readDeclineDetail(detail)).toEqual(detail);
    for (const bad of [
      null,
      "",
      "{",
      "[]",
      "42",
      JSON.stringify({ amount: -1, wallets: [], overflow: { kind: "none" } }),
      JSON.stringify({ amount: 100, wallets: [{ walletId: "x" }], overflow: { kind: "none" } }),
      JSON.stringify({ amount: 100, wallets: [], overflow: { kind: "overMax", max: 5000 } }),
      JSON.stringify({ amount: 100, wallets: [], overflow: { kind: "bogus" } }),
      JSON.stringify({
        amount: 100,
        wallets: [{ walletId: "x", name: "X", type: "gift", canPay: 0, stop: "<script>", limit: null }],
        overflow: { kind: "none" },
      }),
    ]) {
      expect(readDeclineDetail(bad)).toBeNull();
    }
  });
});
