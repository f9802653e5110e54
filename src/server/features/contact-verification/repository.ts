import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Language } from '#shared/contracts/enums';
import type { Executor } from '../../db/client.ts';
import { emailVerificationTokens, phoneVerificationCodes, profiles, signupTrail, smsOutbox, users } from '../../db/schema.ts';

/** E-mail links, mobile codes, the SMS outbox and the sign-up trail (issue 32). Rules live in the service. */

export interface ContactRow {
  email: string;
  emailVerifiedAt: Date | null;
  phone: string;
  phoneVerifiedAt: Date | null;
}

/** The contact and the profile language, which the account's e-mails are written in. */
export type LockedContact = ContactRow & { language: Language };

/**
 * The account's e-mail and phone, and the profile language its e-mails are written in, its user and profile rows locked until the
 * transaction ends, so sends for one account go one at a time.
 */
export async function lockContact(db: Executor, userId: string): Promise<LockedContact | undefined> {
  const [row] = await db
    .select({
      email: users.email,
      emailVerifiedAt: users.emailVerifiedAt,
      phone: profiles.phone,
      phoneVerifiedAt: profiles.phoneVerifiedAt,
      language: profiles.language,
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
    .for('update');
  return row;
}

export async function readContact(db: Executor, userId: string): Promise<(ContactRow & { pendingEmail: string | null; codeOpen: boolean }) | undefined> {
  const [row] = await db
    .select({
      email: users.email,
      emailVerifiedAt: users.emailVerifiedAt,
      phone: profiles.phone,
      phoneVerifiedAt: profiles.phoneVerifiedAt,
      pendingEmail: sql<string | null>`(select t.email from email_verification_tokens t where t.user_id = ${users.id} and t.purpose = 'change'
        and t.used_at is null and t.expires_at > now() order by t.created_at desc limit 1)`,
      codeOpen: sql<boolean>`exists (select 1 from phone_verification_codes c where c.user_id = ${users.id} and c.phone = ${profiles.phone}
        and c.closed_at is null and c.expires_at > now())`,
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId));
  return row;
}

/** How many were sent in the last 24 hours, and how many seconds ago the newest was (undefined: none ever). */
export interface SendHistory {
  sentToday: number;
  secondsSinceLast: number | undefined;
}

export async function emailLinkHistory(db: Executor, userId: string): Promise<SendHistory> {
  const result = await db.execute<{ sent_today: number; seconds_since_last: number | null }>(sql`
    select count(*) filter (where created_at > now() - interval '24 hours')::int as sent_today,
           extract(epoch from now() - max(created_at))::float8 as seconds_since_last
    from email_verification_tokens where user_id = ${userId}`);
  const row = result.rows[0];
  return { sentToday: row?.sent_today ?? 0, secondsSinceLast: row?.seconds_since_last ?? undefined };
}

export async function insertEmailToken(
  db: Executor,
  values: { userId: string; tokenHash: Buffer; email: string; purpose: 'verify' | 'change'; lifetimeHours: number },
): Promise<void> {
  await db.insert(emailVerificationTokens).values({
    userId: values.userId,
    tokenHash: values.tokenHash,
    email: values.email,
    purpose: values.purpose,
    expiresAt: sql`now() + make_interval(hours => ${values.lifetimeHours})`,
  });
}

export interface EmailTokenRow {
  id: string;
  userId: string;
  email: string;
  purpose: 'verify' | 'change';
  used: boolean;
  expired: boolean;
}

/** The token with this hash, locked until the transaction ends; undefined when none has it. */
export async function lockEmailToken(db: Executor, tokenHash: Buffer): Promise<EmailTokenRow | undefined> {
  const [row] = await db
    .select({
      id: emailVerificationTokens.id,
      userId: emailVerificationTokens.userId,
      email: emailVerificationTokens.email,
      purpose: emailVerificationTokens.purpose,
      used: sql<boolean>`${emailVerificationTokens.usedAt} is not null`,
      expired: sql<boolean>`${emailVerificationTokens.expiresAt} <= now()`,
    })
    .from(emailVerificationTokens)
    .where(eq(emailVerificationTokens.tokenHash, tokenHash))
    .for('update');
  return row;
}

/** Marks every unused link of the account used (the one just opened included), or only those of one purpose. */
export async function useUpEmailTokens(db: Executor, userId: string, purpose: 'verify' | 'change' | undefined): Promise<void> {
  await db
    .update(emailVerificationTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(emailVerificationTokens.userId, userId),
        isNull(emailVerificationTokens.usedAt),
        purpose === undefined ? undefined : eq(emailVerificationTokens.purpose, purpose),
      ),
    );
}

/** Marks the address verified while it is still the account's address; answers whether it was. */
export async function markEmailVerified(db: Executor, userId: string, email: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ emailVerifiedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), sql`lower(${users.email}) = lower(${email})`))
    .returning({ id: users.id });
  return rows.length === 1;
}

/** Replaces the account's e-mail with a verified one; answers the address it had. */
export async function replaceEmail(db: Executor, userId: string, email: string): Promise<string | undefined> {
  const result = await db.execute<{ previous_email: string }>(sql`
    update users set email = ${email}, email_verified_at = now(), updated_at = now()
    from (select email as previous_email from users where id = ${userId} for update) previous
    where users.id = ${userId}
    returning previous.previous_email`);
  return result.rows[0]?.previous_email;
}

export async function emailInUse(db: Executor, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return row !== undefined;
}

/** Codes texted for the account, and codes texted to the number by any account, in the last 24 hours. */
export async function codeHistory(db: Executor, userId: string, phone: string): Promise<SendHistory & { sentToNumberToday: number }> {
  const result = await db.execute<{ sent_today: number; seconds_since_last: number | null; sent_to_number_today: number }>(sql`
    select (select count(*) from phone_verification_codes where user_id = ${userId} and created_at > now() - interval '24 hours')::int as sent_today,
           (select extract(epoch from now() - max(created_at)) from phone_verification_codes where user_id = ${userId})::float8 as seconds_since_last,
           (select count(*) from phone_verification_codes where phone = ${phone} and created_at > now() - interval '24 hours')::int as sent_to_number_today`);
  const row = result.rows[0];
  return { sentToday: row?.sent_today ?? 0, secondsSinceLast: row?.seconds_since_last ?? undefined, sentToNumberToday: row?.sent_to_number_today ?? 0 };
}

/** Serialises the sends to one number across accounts until the transaction ends. */
export async function lockNumber(db: Executor, phone: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sms-number:${phone}`}, 0))`);
}

/** Closes every open code of the account: only the newest code texted works. */
export async function closeOpenCodes(db: Executor, userId: string): Promise<void> {
  await db
    .update(phoneVerificationCodes)
    .set({ closedAt: sql`now()` })
    .where(and(eq(phoneVerificationCodes.userId, userId), isNull(phoneVerificationCodes.closedAt)));
}

export async function insertCode(
  db: Executor,
  values: { userId: string; phone: string; codeSalt: Buffer; codeHash: Buffer; lifetimeMinutes: number },
): Promise<void> {
  await db.insert(phoneVerificationCodes).values({
    userId: values.userId,
    phone: values.phone,
    codeSalt: values.codeSalt,
    codeHash: values.codeHash,
    expiresAt: sql`now() + make_interval(mins => ${values.lifetimeMinutes})`,
  });
}

export interface CodeRow {
  id: string;
  phone: string;
  codeSalt: Buffer;
  codeHash: Buffer;
  failedAttempts: number;
  expired: boolean;
}

/** The account's newest open code, locked until the transaction ends. */
export async function lockNewestOpenCode(db: Executor, userId: string): Promise<CodeRow | undefined> {
  const [row] = await db
    .select({
      id: phoneVerificationCodes.id,
      phone: phoneVerificationCodes.phone,
      codeSalt: phoneVerificationCodes.codeSalt,
      codeHash: phoneVerificationCodes.codeHash,
      failedAttempts: phoneVerificationCodes.failedAttempts,
      expired: sql<boolean>`${phoneVerificationCodes.expiresAt} <= now()`,
    })
    .from(phoneVerificationCodes)
    .where(and(eq(phoneVerificationCodes.userId, userId), isNull(phoneVerificationCodes.closedAt)))
    .orderBy(desc(phoneVerificationCodes.createdAt))
    .limit(1)
    .for('update');
  return row;
}

/** Counts a wrong entry; the code closes at `attempts`. Answers the wrong entries so far. */
export async function recordWrongCode(db: Executor, codeId: string, attempts: number): Promise<number> {
  const [row] = await db
    .update(phoneVerificationCodes)
    .set({
      failedAttempts: sql`${phoneVerificationCodes.failedAttempts} + 1`,
      closedAt: sql`case when ${phoneVerificationCodes.failedAttempts} + 1 >= ${attempts} then now() else null end`,
    })
    .where(eq(phoneVerificationCodes.id, codeId))
    .returning({ failedAttempts: phoneVerificationCodes.failedAttempts });
  if (!row) throw new Error(`phone verification code ${codeId} vanished while locked`);
  return row.failedAttempts;
}

export async function closeCode(db: Executor, codeId: string): Promise<void> {
  await db
    .update(phoneVerificationCodes)
    .set({ closedAt: sql`now()` })
    .where(eq(phoneVerificationCodes.id, codeId));
}

/** Marks the number verified while it is still the account's number; answers whether it was. */
export async function markPhoneVerified(db: Executor, userId: string, phone: string): Promise<boolean> {
  const rows = await db
    .update(profiles)
    .set({ phoneVerifiedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(profiles.userId, userId), eq(profiles.phone, phone)))
    .returning({ userId: profiles.userId });
  return rows.length === 1;
}

export async function insertSms(db: Executor, values: { toNumber: string; provider: 'outbox' | 'msg91' | 'twilio'; body: string | null }): Promise<string> {
  const [row] = await db.insert(smsOutbox).values(values).returning({ id: smsOutbox.id });
  if (!row) throw new Error('insert into sms_outbox returned no row');
  return row.id;
}

export async function recordSmsOutcome(db: Executor, smsId: string, outcome: { providerMessageId: string } | { error: string }): Promise<void> {
  await db
    .update(smsOutbox)
    .set('providerMessageId' in outcome ? { delivered: true, sentAt: sql`now()`, providerMessageId: outcome.providerMessageId } : { lastError: outcome.error })
    .where(eq(smsOutbox.id, smsId));
}

export async function insertSignupTrail(
  db: Executor,
  values: {
    userId: string;
    ipAddress: string;
    userAgent: string | null;
    geolocationStatus: 'granted' | 'denied' | 'unavailable' | 'not_asked';
    latitude: number | null;
    longitude: number | null;
    accuracyMeters: number | null;
  },
): Promise<void> {
  await db.insert(signupTrail).values(values);
}

/**
 * Removes e-mail links and mobile codes a day past their expiry (decision 041): they can no longer be used,
 * and the daily resend limits, which count the last 24 hours' rows, no longer count them either. Answers how
 * many of each went.
 */
export async function pruneSpentContactChecks(db: Executor): Promise<{ emailLinks: number; mobileCodes: number }> {
  const links = await db.execute(sql`delete from email_verification_tokens where expires_at <= now() - interval '24 hours'`);
  const codes = await db.execute(sql`delete from phone_verification_codes where expires_at <= now() - interval '24 hours'`);
  return { emailLinks: links.rowCount ?? 0, mobileCodes: codes.rowCount ?? 0 };
}
