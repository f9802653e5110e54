import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { preparedStatement, queryPrepared } from '../../db/prepared.ts';
import { sessions } from '../../db/schema.ts';
import type { Role, VipLevel } from '#shared/contracts/enums';

export interface SessionRecord {
  sessionId: string;
  userId: string;
  role: Role;
  vipLevel: VipLevel;
  pinVerified: boolean;
  lastSeenAt: Date;
  /** Present when the route asked for it (`sessionWithProfile`). */
  profile?: SessionProfile;
}

export async function insertSession(
  db: Executor,
  values: { tokenHash: Buffer; userId: string; ipAddress: string; userAgent: string | undefined },
): Promise<string> {
  const [row] = await db
    .insert(sessions)
    .values({ tokenHash: values.tokenHash, userId: values.userId, ipAddress: values.ipAddress, userAgent: values.userAgent?.slice(0, 300) })
    .returning({ id: sessions.id });
  if (!row) throw new Error('insert into sessions returned no row');
  return row.id;
}

/**
 * The one definition of a usable session: seen within the idle timeout, and younger than the
 * absolute one. As SQL text over a table alias and two parameters, so the prepared session lookup
 * and the query-builder callers below share it.
 */
function liveSessionText(alias: string, idleSeconds: string, absoluteSeconds: string): string {
  return `${alias}.last_seen_at > now() - make_interval(secs => ${idleSeconds}) and ${alias}.created_at > now() - make_interval(secs => ${absoluteSeconds})`;
}

export function liveSession(limits: SessionLimits): SQL {
  // The limits are whole seconds from the server's own settings, never input, so they can be SQL text.
  for (const seconds of [limits.idleTimeoutSeconds, limits.absoluteTimeoutSeconds]) {
    if (!Number.isSafeInteger(seconds) || seconds <= 0) throw new Error(`session limit must be a positive whole number of seconds, got ${seconds}`);
  }
  return sql.raw(liveSessionText('"sessions"', String(limits.idleTimeoutSeconds), String(limits.absoluteTimeoutSeconds)));
}

export interface SessionLimits {
  idleTimeoutSeconds: number;
  absoluteTimeoutSeconds: number;
}

/** What GET /api/me answers besides the session itself, read in the same statement as the session. */
export interface SessionProfile {
  email: string;
  name: string;
  phone: string;
  referralCode: string;
  balanceUsdtMicros: bigint;
  hasPin: boolean;
  createdAt: Date;
  pan: string | null;
}

interface SessionRow {
  sessionId: string;
  userId: string;
  role: string;
  vipLevel: string;
  pinVerified: boolean;
  lastSeenAt: Date;
}

const sessionColumns = `s.id as "sessionId", s.user_id as "userId", p.role, p.vip_level as "vipLevel",
  s.pin_verified_at is not null as "pinVerified", s.last_seen_at as "lastSeenAt"`;
const sessionCondition = `s.token_hash = $1 and ${liveSessionText('s', '$2', '$3')}`;

const findSession = preparedStatement<SessionRow>(
  'session_lookup',
  `select ${sessionColumns}
   from sessions s join profiles p on p.user_id = s.user_id
   where ${sessionCondition}`,
);

const findSessionWithProfile = preparedStatement<SessionRow & SessionProfile>(
  'session_lookup_with_profile',
  `select ${sessionColumns}, u.email, p.name, p.phone, p.referral_code as "referralCode",
     coalesce(l.balance_usdt_micros, 0)::bigint as "balanceUsdtMicros", pin.user_id is not null as "hasPin", u.created_at as "createdAt", p.pan
   from sessions s
     join profiles p on p.user_id = s.user_id
     join users u on u.id = s.user_id
     left join ledger_accounts l on l.user_id = s.user_id
     left join user_pins pin on pin.user_id = s.user_id
   where ${sessionCondition}`,
);

/**
 * The live session for a token hash, or nothing when it is unknown, idle too long or too old; with
 * `withProfile`, also what GET /api/me shows, so that route needs no second round trip.
 */
export async function findLiveSession(
  db: Database,
  tokenHash: Buffer,
  limits: SessionLimits,
  options: { withProfile: boolean } = { withProfile: false },
): Promise<SessionRecord | undefined> {
  const values = [tokenHash, limits.idleTimeoutSeconds, limits.absoluteTimeoutSeconds];
  if (!options.withProfile) {
    const [row] = await queryPrepared(db, findSession, values);
    return row && sessionRecord(row);
  }
  const [row] = await queryPrepared(db, findSessionWithProfile, values);
  if (!row) return undefined;
  const { email, name, phone, referralCode, balanceUsdtMicros, hasPin, createdAt, pan } = row;
  return Object.assign(sessionRecord(row), { profile: { email, name, phone, referralCode, balanceUsdtMicros, hasPin, createdAt, pan } });
}

function sessionRecord(row: SessionRow): SessionRecord {
  return {
    sessionId: row.sessionId,
    userId: row.userId,
    role: row.role as Role,
    vipLevel: row.vipLevel as VipLevel,
    pinVerified: row.pinVerified,
    lastSeenAt: row.lastSeenAt,
  };
}

export async function touchSession(db: Executor, sessionId: string): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: sql`now()` }).where(eq(sessions.id, sessionId));
}

export async function markSessionPinVerified(db: Executor, sessionId: string): Promise<void> {
  await db.update(sessions).set({ pinVerifiedAt: sql`now()` }).where(eq(sessions.id, sessionId));
}

export async function sessionExists(db: Executor, sessionId: string): Promise<boolean> {
  const [row] = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, sessionId));
  return row !== undefined;
}

export async function deleteSession(db: Executor, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

export async function deleteSessionsOfUser(db: Executor, userId: string): Promise<number> {
  const deleted = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  return deleted.length;
}

/** Ends every session of the user except the one given (the one that made a security change). */
export async function deleteOtherSessionsOfUser(db: Executor, userId: string, keptSessionId: string | undefined): Promise<number> {
  const condition = keptSessionId === undefined ? eq(sessions.userId, userId) : and(eq(sessions.userId, userId), ne(sessions.id, keptSessionId));
  const deleted = await db.delete(sessions).where(condition).returning({ id: sessions.id });
  return deleted.length;
}
