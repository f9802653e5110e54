import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { ledgerAccounts, profiles, userPins, users } from '../../db/schema.ts';
import type { Language, Role, VipLevel } from '#shared/contracts/enums';

export interface UserProfileRow {
  id: string;
  email: string;
  name: string;
  phone: string;
  role: Role;
  vipLevel: VipLevel;
  referralCode: string;
  balanceUsdtMicros: bigint;
  hasPin: boolean;
  createdAt: Date;
  pan: string | null;
  language: Language;
}

export async function findUserProfile(db: Executor, userId: string): Promise<UserProfileRow | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      name: profiles.name,
      phone: profiles.phone,
      role: profiles.role,
      vipLevel: profiles.vipLevel,
      referralCode: profiles.referralCode,
      balanceUsdtMicros: sql<bigint>`coalesce(${ledgerAccounts.balanceUsdtMicros}, 0)`.mapWith((value) => BigInt(value)),
      hasPin: sql<boolean>`${userPins.userId} is not null`,
      createdAt: users.createdAt,
      pan: profiles.pan,
      language: profiles.language,
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(ledgerAccounts, eq(ledgerAccounts.userId, users.id))
    .leftJoin(userPins, eq(userPins.userId, users.id))
    .where(eq(users.id, userId));
  return row;
}

export async function findCredentialsByEmail(
  db: Executor,
  email: string,
): Promise<{ id: string; email: string; passwordHash: string; closedAt: Date | null } | undefined> {
  const [row] = await db
    .select({ id: users.id, email: users.email, passwordHash: users.passwordHash, closedAt: users.closedAt })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  return row;
}

export async function findPasswordHash(db: Executor, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return row?.passwordHash;
}

/** Where and in which language to write to the user (the profile's language, issue 33). */
export async function findEmailAndLanguage(db: Executor, userId: string): Promise<{ email: string; language: Language } | undefined> {
  const [row] = await db
    .select({ email: users.email, language: profiles.language })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId));
  return row;
}

/** A password set through a reset link: it starts the cooling-off of withdrawals and transfers. */
export async function markPasswordReset(db: Executor, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ passwordResetAt: sql`now()` })
    .where(eq(users.id, userId));
}

/**
 * Stores a password reset token for the account with this e-mail, in one
 * statement that does the same work whether or not the account exists (and
 * stores nothing when it does not, when it is closed, or when `allowed` is false).
 */
export async function insertPasswordResetTokenForEmail(
  db: Executor,
  email: string,
  tokenHash: Buffer,
  lifetimeMinutes: number,
  allowed: boolean,
): Promise<{ id: string; email: string; language: Language } | undefined> {
  const result = await db.execute<{ id: string; email: string; language: Language }>(sql`
    with account as (select id, email from users where lower(email) = lower(${email}) and closed_at is null and ${allowed}),
    stored as (
      insert into password_reset_tokens (user_id, token_hash, expires_at)
      select id, ${tokenHash}, now() + make_interval(mins => ${lifetimeMinutes}) from account
      returning user_id
    )
    select account.id, account.email, coalesce((select language from profiles where user_id = account.id), 'en') as language
    from account join stored on stored.user_id = account.id`);
  return result.rows[0];
}

/** One database round trip that changes nothing, to keep two answers' work alike. */
export async function roundTrip(db: Executor): Promise<void> {
  await db.execute(sql`select 1`);
}

export async function insertUser(db: Executor, values: { email: string; passwordHash: string }): Promise<string | undefined> {
  const [row] = await db.insert(users).values(values).onConflictDoNothing().returning({ id: users.id });
  return row?.id;
}

/** Inserts the profile unless its referral code is taken; returns false on that collision so the caller can draw another code. */
export async function insertProfile(
  db: Executor,
  values: { userId: string; name: string; phone: string; role?: Role; referralCode: string; referredByUserId: string | undefined; language?: Language },
): Promise<boolean> {
  const inserted = await db.insert(profiles).values(values).onConflictDoNothing({ target: profiles.referralCode }).returning({ userId: profiles.userId });
  return inserted.length === 1;
}

export async function insertWallet(db: Executor, userId: string): Promise<void> {
  await db.insert(ledgerAccounts).values({ kind: 'customer_wallet', userId });
}

export async function findUserIdByReferralCode(db: Executor, referralCode: string): Promise<string | undefined> {
  const [row] = await db.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.referralCode, referralCode));
  return row?.userId;
}

/** Replaces the password hash only while it is still `expectedHash`; false when it changed meanwhile. */
export async function replacePasswordHash(db: Executor, userId: string, expectedHash: string, passwordHash: string): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ passwordHash, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), eq(users.passwordHash, expectedHash)))
    .returning({ id: users.id });
  return updated.length === 1;
}

/** Sets the name and phone; answers the phone it replaced, or undefined for a missing user. */
export async function updateNameAndPhone(
  db: Executor,
  userId: string,
  name: string,
  phone: string,
): Promise<{ previousName: string; previousPhone: string } | undefined> {
  const result = await db.execute<{ previous_name: string; previous_phone: string }>(sql`
    update profiles set name = ${name}, phone = ${phone}, updated_at = now(),
      phone_verified_at = case when profiles.phone = ${phone} then profiles.phone_verified_at end
    from (select name as previous_name, phone as previous_phone from profiles where user_id = ${userId} for update) previous
    where profiles.user_id = ${userId}
    returning previous.previous_name, previous.previous_phone`);
  const row = result.rows[0];
  return row ? { previousName: row.previous_name, previousPhone: row.previous_phone } : undefined;
}

export async function updatePasswordHash(db: Executor, userId: string, passwordHash: string): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}

export async function setRole(db: Executor, userId: string, role: 'user' | 'admin'): Promise<void> {
  await db
    .update(profiles)
    .set({ role, updatedAt: sql`now()` })
    .where(eq(profiles.userId, userId));
}

/** The ids of every admin, their profiles locked until the transaction ends. */
export async function lockAdminIds(db: Executor): Promise<string[]> {
  const rows = await db.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.role, 'admin')).for('update');
  return rows.map((row) => row.userId);
}

export async function adminExists(db: Executor): Promise<boolean> {
  const [row] = await db.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.role, 'admin')).limit(1);
  return row !== undefined;
}

/** Sets the language of the user's screens and e-mails. */
export async function updateLanguage(db: Executor, userId: string, language: Language): Promise<void> {
  await db
    .update(profiles)
    .set({ language, updatedAt: sql`now()` })
    .where(eq(profiles.userId, userId));
}

/** Whether the account is open (decision 060), holding a share lock on its row until the transaction ends, so it cannot close meanwhile. */
export async function lockOpenAccount(db: Executor, userId: string): Promise<boolean> {
  const result = await db.execute<{ open: boolean }>(sql`select closed_at is null as open from users where id = ${userId} for share`);
  return result.rows[0]?.open ?? false;
}
