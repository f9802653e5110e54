import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { profiles, sessions } from '../../db/schema.ts';
import type { Role, VipLevel } from '../../../shared/contracts/common.ts';

export interface SessionRecord {
  sessionId: string;
  userId: string;
  role: Role;
  vipLevel: VipLevel;
  pinVerified: boolean;
  lastSeenAt: Date;
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

/** The live session for a token hash, or nothing when it is unknown, idle too long or too old. */
/** The one definition of a usable session: seen within the idle timeout, and younger than the absolute one. */
export function liveSession(limits: SessionLimits): SQL {
  return sql`${sessions.lastSeenAt} > now() - make_interval(secs => ${limits.idleTimeoutSeconds}) and ${sessions.createdAt} > now() - make_interval(secs => ${limits.absoluteTimeoutSeconds})`;
}

export interface SessionLimits {
  idleTimeoutSeconds: number;
  absoluteTimeoutSeconds: number;
}

export async function findLiveSession(
  db: Executor,
  tokenHash: Buffer,
  limits: { idleTimeoutSeconds: number; absoluteTimeoutSeconds: number },
): Promise<SessionRecord | undefined> {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      userId: sessions.userId,
      role: profiles.role,
      vipLevel: profiles.vipLevel,
      pinVerifiedAt: sessions.pinVerifiedAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(profiles, eq(profiles.userId, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        liveSession(limits),
      ),
    );
  if (!row) return undefined;
  return {
    sessionId: row.sessionId,
    userId: row.userId,
    role: row.role as Role,
    vipLevel: row.vipLevel as VipLevel,
    pinVerified: row.pinVerifiedAt !== null,
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
