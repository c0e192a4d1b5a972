import { PostgresAdapter, sql } from "kysely";
import type { DB } from "../db";
import { decoyHash, verifyPassword } from "../passwords";
import { guess, type GuessPolicy } from "./guess-limits";
import { prepared, type Argument } from "../db/prepared";

export type Permission = "manageGroups" | "manageOwnGroups" | "bypassMFA";

export interface Features {
  integrations: Record<string, boolean | string[]>;
  allowances: { any?: boolean; [k: string]: boolean | string[] | undefined };
  expenseRequests: { any?: boolean; [k: string]: boolean | string[] | undefined };
}

export interface Account {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  termsConfirmed: boolean;
  mfaEnabled: boolean;
  mfaPreferred: "EMAIL" | "SMS";
  permissions: Permission[];
  features: Features;
  groups: { id: string; name: string }[];
  /** Chose the light version in the settings (decision 0040): pages without any script. */
  lightVersion: boolean;
  /** Has at least one passkey (issue 32): the sign-in offers it as the second factor, the reveal instead of a code. */
  hasPasskeys: boolean;
  /** Has answered the consent banner (decision 0059), read with the account: the banner needs no query of its own. */
  consentDecided: boolean;
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export type CredentialsCheck =
  { kind: "ok"; userId: string } | { kind: "invalid" } | { kind: "disabled" } | { kind: "locked"; retryAt: Date };

/**
 * The sign-in's password step. An unknown e-mail costs the same hashing work as a wrong password, and
 * is counted and made to wait exactly like a known one (the count is kept per e-mail typed), so neither
 * answers nor response times reveal which e-mails exist. After a few wrong passwords the e-mail's
 * guesses wait, whatever address they come from; even the right password is refused meanwhile. A
 * disabled account (under review) is said so only to whoever gives its right password.
 */
export async function checkCredentials(
  db: DB,
  email: string,
  password: string,
  options: { policy?: GuessPolicy; now?: Date } = {},
): Promise<CredentialsCheck> {
  const found: { userId?: string; disabled?: boolean } = {};
  const outcome = await guess(
    db,
    "password",
    normaliseEmail(email),
    async () => {
      const row = await db
        .selectFrom("users")
        .select(["id", "password_hash", "status"])
        .where("email", "=", normaliseEmail(email))
        .executeTakeFirst();
      const hash = row?.password_hash ?? (await decoyHash());
      const valid = await verifyPassword(password, hash);
      if (!row || !row.password_hash || !valid || (row.status !== "active" && row.status !== "disabled")) return false;
      found.userId = row.id;
      found.disabled = row.status === "disabled";
      return true;
    },
    options,
  );
  if (outcome.status === "locked") return { kind: "locked", retryAt: outcome.retryAt };
  if (outcome.status !== "right" || !found.userId) return { kind: "invalid" };
  return found.disabled ? { kind: "disabled" } : { kind: "ok", userId: found.userId };
}

/** The account for these credentials, or null (refused while the e-mail's guesses wait). */
export async function authenticateWithPassword(db: DB, email: string, password: string): Promise<string | null> {
  const result = await checkCredentials(db, email, password);
  return result.kind === "ok" ? result.userId : null;
}

/**
 * The account's row with what every signed-in request needs of it, in one statement: whether it has passkeys, its
 * groups (a JSON array, by name) and whether it has made its consent choice (the banner's question, decision 0059).
 */
const accountRow = prepared((db, arg: Argument<{ userId: string }>) => {
  // The groups as one JSON value: json_agg on PostgreSQL (parsed by the driver), json_group_array on SQLite (text).
  const groups =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? sql<unknown>`(select coalesce(json_agg(json_build_object('id', g.id, 'name', g.name) order by g.name, g.id), '[]'::json)
          from memberships m inner join groups g on g.id = m.group_id where m.user_id = users.id)`
      : sql<unknown>`(select json_group_array(json_object('id', g.id, 'name', g.name) order by g.name, g.id)
          from memberships m inner join groups g on g.id = m.group_id where m.user_id = users.id)`;
  return db
    .selectFrom("users")
    .leftJoin("consents", "consents.user_id", "users.id")
    .selectAll("users")
    .select((eb) => [
      eb
        .exists(eb.selectFrom("passkeys").select("passkeys.id").whereRef("passkeys.user_id", "=", "users.id"))
        .as("has_passkeys"),
      groups.as("groups_json"),
      "consents.decided_at as consent_decided_at",
    ])
    .where("users.id", "=", arg("userId"));
});

/** The account's groups from their JSON value (text on SQLite, already parsed on PostgreSQL). */
function groupsFrom(value: unknown): { id: string; name: string }[] {
  const list: unknown = typeof value === "string" ? parseJson<unknown>(value, []) : value;
  return Array.isArray(list)
    ? list.map((g: { id: unknown; name: unknown }) => ({ id: String(g.id), name: String(g.name) }))
    : [];
}

export async function getAccount(db: DB, userId: string): Promise<Account | null> {
  const row = await accountRow.first(db, { userId });
  if (!row || row.status !== "active") return null;
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    phone: row.phone,
    termsConfirmed: row.terms_confirmed_at !== null,
    mfaEnabled: row.mfa_enabled === 1,
    mfaPreferred: row.mfa_preferred === "SMS" ? "SMS" : "EMAIL",
    permissions: parseJson<Permission[]>(row.permissions, []),
    features: {
      integrations: {},
      allowances: {},
      expenseRequests: {},
      ...parseJson<Partial<Features>>(row.features, {}),
    },
    groups: groupsFrom(row.groups_json),
    lightVersion: row.light_version === 1,
    // EXISTS answers 1/0 on SQLite, true/false on PostgreSQL.
    hasPasskeys: Boolean(row.has_passkeys),
    consentDecided: row.consent_decided_at !== null,
  };
}

/**
 * Spec 001 §3: onboarded only with a complete profile and at least one card. `listedCards`, when given, is the
 * person's card listing the request already reads (the signed-in layouts' middleware): no query of its own then.
 */
export async function isOnboarded(
  db: DB,
  account: Account,
  listedCards?: () => Promise<readonly unknown[]>,
): Promise<boolean> {
  if (!profileComplete(account)) return false;
  if (listedCards) return (await listedCards()).length > 0;
  const card = await db.selectFrom("cards").select("id").where("user_id", "=", account.id).executeTakeFirst();
  return card !== undefined;
}

export function initialsOf(account: Pick<Account, "firstName" | "lastName" | "email">): string {
  const letters = [account.firstName, account.lastName]
    .map((n) => n?.trim().charAt(0) ?? "")
    .join("")
    .toUpperCase();
  return letters || account.email.charAt(0).toUpperCase();
}

export function displayName(account: Pick<Account, "firstName" | "lastName" | "email">): string {
  const name = [account.firstName, account.lastName].filter(Boolean).join(" ");
  return name || account.email;
}

export function canManageGroups(account: Pick<Account, "permissions">): boolean {
  return account.permissions.includes("manageGroups") || account.permissions.includes("manageOwnGroups");
}

/** Where a one-time code goes: the preferred channel, falling back to e-mail without a phone. */
export function codeDestination(account: Account): { channel: "email" | "sms"; destination: string } {
  if (account.mfaPreferred === "SMS" && account.phone) return { channel: "sms", destination: account.phone };
  return { channel: "email", destination: account.email };
}

/** "m•••e@example.com" / "•• •• •• 56 78": enough to recognise, not enough to harvest. */
export function maskDestination(channel: "email" | "sms", destination: string): string {
  if (channel === "sms") {
    const digits = destination.replace(/\D/g, "");
    return `•• •• •• ${digits.slice(-4, -2)} ${digits.slice(-2)}`;
  }
  const [local = "", domain = ""] = destination.split("@");
  const head = local.charAt(0);
  const tail = local.length > 2 ? local.charAt(local.length - 1) : "";
  return `${head}•••${tail}@${domain}`;
}

export function profileComplete(
  account: Pick<Account, "firstName" | "lastName" | "phone" | "termsConfirmed">,
): boolean {
  return Boolean(account.firstName && account.lastName && account.phone && account.termsConfirmed);
}

/**
 * Onboarding step 0 (spec 001 §2.3, §5): names, mobile phone and terms acceptance. `phone` is null when
 * a phone change is pending: that number is then confirmed by its own code, not set here.
 *
 * Only for accounts not onboarded yet: afterwards names are read-only (001 §6, support or employer
 * only) and the phone changes only through a pending change confirmed by a code, so an onboarded
 * account is refused and nothing is written.
 */
export async function completeOnboardingProfile(
  db: DB,
  userId: string,
  profile: { firstName: string; lastName: string; phone: string | null },
  now = new Date(),
): Promise<{ kind: "saved" } | { kind: "alreadyOnboarded" }> {
  return db.transaction().execute(async (trx) => {
    const account = await getAccount(trx, userId);
    if (!account || (await isOnboarded(trx, account))) return { kind: "alreadyOnboarded" } as const;
    await trx
      .updateTable("users")
      .set({
        first_name: profile.firstName,
        last_name: profile.lastName,
        ...(profile.phone ? { phone: profile.phone } : {}),
        terms_confirmed_at: now.toISOString(),
      })
      .where("id", "=", userId)
      .execute();
    return { kind: "saved" } as const;
  });
}
