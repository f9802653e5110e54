import assert from 'node:assert/strict';
import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { preparedStatement, queryPrepared, type PreparedStatement } from '../../db/prepared.ts';
import { sessions } from '../../db/schema.ts';
import type { Role, VipLevel } from '#shared/contracts/enums';

export interface SessionRecord {
  sessionId: string;
  userId: string;
  role: Role;
  vipLevel: VipLevel;
  pinVerified: boolean;
  lastSeenAt: Date;
  /** What the route's `sessionJoinedRead` read in the same statement, when it has one (see `joinedReadOf`). */
  joined?: { read: SessionJoinedRead<unknown>; value: unknown };
}

/**
 * Columns a route reads in the same statement as its session, so that it needs no second round
 * trip: SQL written by the feature that owns them, over the session `s` and the user's profile
 * `p`, never input. One prepared statement per read, named after it.
 */
export interface SessionJoinedRead<Value> {
  /** Names the statement `session_lookup_with_<name>`. */
  readonly name: string;
  /** The added select list; each column named in double quotes. */
  readonly columns: string;
  /** Joins after `sessions s join profiles p`, or an empty string. */
  readonly joins: string;
  /** The value from the row, whose added columns are keyed by their names. */
  readonly valueOf: (row: Record<string, unknown>) => Value;
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

interface SessionRow {
  sessionId: string;
  userId: string;
  role: Role;
  vipLevel: VipLevel;
  pinVerified: boolean;
  lastSeenAt: Date;
}

/** The session's columns: each one's SQL and the name its row gives it. */
const SESSION_COLUMNS: readonly (readonly [expression: string, name: keyof SessionRow])[] = [
  ['s.id', 'sessionId'],
  ['s.user_id', 'userId'],
  ['p.role', 'role'],
  ['p.vip_level', 'vipLevel'],
  ['s.pin_verified_at is not null', 'pinVerified'],
  ['s.last_seen_at', 'lastSeenAt'],
];
const sessionColumns = SESSION_COLUMNS.map(([expression, name]) => `${expression} as "${name}"`).join(', ');
const sessionCondition = `s.token_hash = $1 and ${liveSessionText('s', '$2', '$3')}`;

const findSession = preparedStatement<SessionRow>(
  'session_lookup',
  `select ${sessionColumns}
   from sessions s join profiles p on p.user_id = s.user_id
   where ${sessionCondition}`,
);

const joinedStatements = new Map<SessionJoinedRead<unknown>, PreparedStatement<SessionRow & Record<string, unknown>>>();

function joinedStatement(read: SessionJoinedRead<unknown>): PreparedStatement<SessionRow & Record<string, unknown>> {
  let statement = joinedStatements.get(read);
  if (statement === undefined) {
    // A row keeps the later of two columns with one name. The session's columns come last, so no read
    // can replace the caller's id or role; a read that names one of them is a bug, refused here.
    const shadowed = [...read.columns.matchAll(/ as "([^"]+)"/g)]
      .map((match) => match[1])
      .filter((name) => SESSION_COLUMNS.some(([, column]) => column === name));
    assert.deepEqual(shadowed, [], `the ${read.name} read selects a session column`);
    statement = preparedStatement(
      `session_lookup_with_${read.name}`,
      `select ${read.columns}, ${sessionColumns}
       from sessions s join profiles p on p.user_id = s.user_id ${read.joins}
       where ${sessionCondition}`,
    );
    joinedStatements.set(read, statement);
  }
  return statement;
}

/**
 * The live session for a token hash, or nothing when it is unknown, idle too long or too old; with
 * a joined read, also what that read's columns hold, from the same statement.
 */
export async function findLiveSession(
  db: Database,
  tokenHash: Buffer,
  limits: SessionLimits,
  joinedRead?: SessionJoinedRead<unknown>,
): Promise<SessionRecord | undefined> {
  const values = [tokenHash, limits.idleTimeoutSeconds, limits.absoluteTimeoutSeconds];
  if (joinedRead === undefined) {
    const [row] = await queryPrepared(db, findSession, values);
    return row && sessionRecord(row);
  }
  const [row] = await queryPrepared(db, joinedStatement(joinedRead), values);
  if (!row) return undefined;
  return Object.assign(sessionRecord(row), { joined: { read: joinedRead, value: joinedRead.valueOf(row) } });
}

/** What the route's joined read found with the session; asking with another read than the route's is a bug. */
export function joinedReadOf<Value>(session: SessionRecord, read: SessionJoinedRead<Value>): Value {
  if (session.joined?.read !== read) throw new Error(`the session was not looked up with the ${read.name} read (the route's config.sessionJoinedRead)`);
  return session.joined.value as Value;
}

function sessionRecord(row: SessionRow): SessionRecord {
  return {
    sessionId: row.sessionId,
    userId: row.userId,
    role: row.role,
    vipLevel: row.vipLevel,
    pinVerified: row.pinVerified,
    lastSeenAt: row.lastSeenAt,
  };
}

export async function touchSession(db: Executor, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: sql`now()` })
    .where(eq(sessions.id, sessionId));
}

export async function markSessionPinVerified(db: Executor, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ pinVerifiedAt: sql`now()` })
    .where(eq(sessions.id, sessionId));
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
