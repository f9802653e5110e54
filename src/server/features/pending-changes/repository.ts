import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { PendingChangeKind } from '#shared/contracts/enums';
import type { Executor } from '../../db/client.ts';
import { pendingChanges, profiles, users } from '../../db/schema.ts';
import { parseStoredChange, type StoredPendingChange } from './kinds.ts';

export async function insertChange(
  db: Executor,
  values: { kind: PendingChangeKind; subject: string; payload: unknown; requestedByUserId: string },
): Promise<StoredPendingChange> {
  const [row] = await db.insert(pendingChanges).values(values).returning();
  if (!row) throw new Error('insert into pending_changes returned no row');
  return parseStoredChange(row);
}

export async function findOpenBySubject(db: Executor, kind: PendingChangeKind, subject: string): Promise<StoredPendingChange | undefined> {
  const [row] = await db
    .select()
    .from(pendingChanges)
    .where(and(eq(pendingChanges.kind, kind), eq(pendingChanges.subject, subject), eq(pendingChanges.status, 'open')));
  return row && parseStoredChange(row);
}

export async function findById(db: Executor, id: string): Promise<StoredPendingChange | undefined> {
  const [row] = await db.select().from(pendingChanges).where(eq(pendingChanges.id, id));
  return row && parseStoredChange(row);
}

/** The change, locked until the transaction ends, so that two decisions on it happen one after the other. */
export async function findByIdForUpdate(db: Executor, id: string): Promise<StoredPendingChange | undefined> {
  const [row] = await db.select().from(pendingChanges).where(eq(pendingChanges.id, id)).for('update');
  return row && parseStoredChange(row);
}

export async function listOpen(db: Executor, limit: number): Promise<StoredPendingChange[]> {
  const rows = await db
    .select()
    .from(pendingChanges)
    .where(eq(pendingChanges.status, 'open'))
    .orderBy(asc(pendingChanges.requestedAt), asc(pendingChanges.id))
    .limit(limit);
  return rows.map(parseStoredChange);
}

/** Decides an open change; undefined when it was not open any more. */
export async function markDecided(
  db: Executor,
  id: string,
  decision: { status: 'confirmed' | 'discarded'; decidedByUserId: string | null },
): Promise<StoredPendingChange | undefined> {
  const [row] = await db
    .update(pendingChanges)
    .set({ status: decision.status, decidedByUserId: decision.decidedByUserId, decidedAt: sql`now()` })
    .where(and(eq(pendingChanges.id, id), eq(pendingChanges.status, 'open')))
    .returning();
  return row && parseStoredChange(row);
}

export async function countAdmins(db: Executor): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(profiles)
    .where(eq(profiles.role, 'admin'));
  return row?.count ?? 0;
}

export async function listAdminEmails(db: Executor): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.role, 'admin'))
    .orderBy(asc(users.email));
  return rows.map((row) => row.email);
}

export async function findPeople(db: Executor, ids: string[]): Promise<Map<string, { id: string; name: string; email: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: profiles.name, email: users.email })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}
