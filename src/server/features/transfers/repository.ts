import { and, eq, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, Executor } from '../../db/client.ts';
import { profiles, transfers, users } from '../../db/schema.ts';
import { cursorTimestamp, type PageCursor } from '../../platform/pagination/cursor.ts';
import { tableRowColumns, tableRowPicker } from '../../db/prepared.ts';
import { keysetList, partyColumns, partyOf, type PartyColumns } from '../../platform/pagination/keyset-statements.ts';
import { REQUEST_STATUSES, type RequestStatus } from '#shared/contracts/enums';

export type TransferRow = typeof transfers.$inferSelect;
export interface PartySummary {
  id: string;
  name: string;
  email: string;
  phone: string;
}
export interface TransferWithPartiesRow {
  transfer: TransferRow;
  sender: PartySummary;
  recipient: PartySummary;
  cursorCreatedAt: string;
}

export async function insert(db: Executor, values: { senderUserId: string; recipientUserId: string; amountUsdtMicros: bigint }): Promise<TransferRow> {
  const [row] = await db.insert(transfers).values(values).returning();
  if (!row) throw new Error('insert into transfers returned no row');
  return row;
}

export async function findById(db: Executor, id: string): Promise<TransferRow | undefined> {
  const [row] = await db.select().from(transfers).where(eq(transfers.id, id));
  return row;
}

/** Decides a transfer only while it is pending; a concurrent second decision waits for the row and then finds nothing. */
export async function decidePending(
  db: Executor,
  id: string,
  decision: { status: 'approved' | 'rejected'; decidedByUserId: string | null; rejectionReason?: string | undefined },
): Promise<TransferRow | undefined> {
  const [row] = await db
    .update(transfers)
    .set({ status: decision.status, decidedAt: sql`now()`, decidedByUserId: decision.decidedByUserId, rejectionReason: decision.rejectionReason ?? null })
    .where(and(eq(transfers.id, id), eq(transfers.status, 'pending')))
    .returning();
  return row;
}

const senderUsers = alias(users, 'sender_users');
const senderProfiles = alias(profiles, 'sender_profiles');
const recipientUsers = alias(users, 'recipient_users');
const recipientProfiles = alias(profiles, 'recipient_profiles');

function selectWithParties(db: Executor) {
  return db
    .select({
      transfer: transfers,
      sender: { id: senderUsers.id, name: senderProfiles.name, email: senderUsers.email, phone: senderProfiles.phone },
      recipient: { id: recipientUsers.id, name: recipientProfiles.name, email: recipientUsers.email, phone: recipientProfiles.phone },
      cursorCreatedAt: cursorTimestamp(transfers.createdAt),
    })
    .from(transfers)
    .innerJoin(senderUsers, eq(senderUsers.id, transfers.senderUserId))
    .innerJoin(senderProfiles, eq(senderProfiles.userId, transfers.senderUserId))
    .innerJoin(recipientUsers, eq(recipientUsers.id, transfers.recipientUserId))
    .innerJoin(recipientProfiles, eq(recipientProfiles.userId, transfers.recipientUserId));
}

export async function findWithParties(db: Executor, id: string): Promise<TransferWithPartiesRow | undefined> {
  const [row] = await selectWithParties(db).where(eq(transfers.id, id));
  return row;
}

/** A transfer the user sent or received; anyone else's is not found. */
export async function findWithPartiesForUser(db: Executor, userId: string, id: string): Promise<TransferWithPartiesRow | undefined> {
  const [row] = await selectWithParties(db).where(and(eq(transfers.id, id), or(eq(transfers.senderUserId, userId), eq(transfers.recipientUserId, userId))));
  return row;
}

const transferColumnsOf = tableRowPicker(transfers);

const adminQueuePage = keysetList<TransferRow & PartyColumns<'sender'> & PartyColumns<'recipient'>>({
  name: 'admin_transfers',
  select: `${tableRowColumns(transfers, 't')}, ${partyColumns('su', 'sp', 'sender')}, ${partyColumns('ru', 'rp', 'recipient')}`,
  from: `transfers t
    join users su on su.id = t.sender_user_id join profiles sp on sp.user_id = t.sender_user_id
    join users ru on ru.id = t.recipient_user_id join profiles rp on rp.user_id = t.recipient_user_id`,
  alias: 't',
  statuses: REQUEST_STATUSES,
});

/** The admin queue's page: transfers with both parties, newest first. */
export async function listWithParties(
  db: Database,
  options: { status: RequestStatus | undefined; cursor: PageCursor | undefined; limit: number },
): Promise<TransferWithPartiesRow[]> {
  const rows = await adminQueuePage(db, options);
  return rows.map((row) => ({
    transfer: transferColumnsOf(row),
    sender: partyOf(row, 'sender'),
    recipient: partyOf(row, 'recipient'),
    cursorCreatedAt: row.cursorCreatedAt,
  }));
}
