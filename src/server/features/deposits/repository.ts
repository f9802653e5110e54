import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { customerWallets, profiles, referralRewards, unclaimedTransfers, usdtDeposits, users } from '../../db/schema.ts';
import { cursorTimestamp, type PageCursor } from '../../platform/pagination/cursor.ts';
import { preparedStatement, queryPreparedIn, tableRowColumns, tableRowPicker } from '../../db/prepared.ts';
import { keysetList, partyColumns, partyOf, type PartyColumns } from '../../platform/pagination/keyset-statements.ts';
import { REQUEST_STATUSES, type DepositNetwork, type RequestStatus } from '#shared/contracts/enums';

export type DepositRow = typeof usdtDeposits.$inferSelect;
export interface DepositWithUserRow {
  deposit: DepositRow;
  user: { id: string; name: string; email: string; phone: string };
  cursorCreatedAt: string;
}

/**
 * Inserts the deposit; undefined when a deposit of the same transaction exists on the network
 * (submitted, or detected on chain) that was not rejected: a rejected claim releases its transfer
 * (decision 037). The caller holds the transaction's lock (chain lockChainTransaction), so detection
 * cannot record one in between; the unique key on submitted hashes backs this up.
 */
export async function insertUnlessHashKnown(
  db: Executor,
  values: { userId: string; network: DepositNetwork; amountUsdtMicros: bigint; typedAmountUsdtMicros: bigint; transactionHash: string; depositAddress: string },
): Promise<DepositRow | undefined> {
  if (await transactionClaimed(db, values.network, values.transactionHash)) return undefined;
  const [row] = await db
    .insert(usdtDeposits)
    .values(values)
    .onConflictDoNothing({ target: [usdtDeposits.network, usdtDeposits.transactionHash], where: sql`source = 'customer' and status <> 'rejected'` })
    .returning();
  return row;
}

export async function findById(db: Executor, id: string): Promise<DepositRow | undefined> {
  const [row] = await db.select().from(usdtDeposits).where(eq(usdtDeposits.id, id));
  return row;
}

export async function findOwned(db: Executor, userId: string, id: string): Promise<DepositRow | undefined> {
  const [row] = await db
    .select()
    .from(usdtDeposits)
    .where(and(eq(usdtDeposits.id, id), eq(usdtDeposits.userId, userId)));
  return row;
}

/**
 * Decides a deposit only while it is pending; a concurrent second decision waits for the row and then finds nothing.
 * An approval credits the on-chain amount whenever the chain gave one, whatever was typed (decision 037).
 */
export async function decidePending(
  db: Executor,
  id: string,
  decision: { status: 'approved' | 'rejected'; decidedByUserId: string | null; rejectionReason?: string | undefined },
): Promise<DepositRow | undefined> {
  const [row] = await db
    .update(usdtDeposits)
    .set({
      status: decision.status,
      decidedAt: sql`now()`,
      decidedByUserId: decision.decidedByUserId,
      rejectionReason: decision.rejectionReason ?? null,
      ...(decision.status === 'approved' ? { amountUsdtMicros: sql`coalesce(${usdtDeposits.chainAmountUsdtMicros}, ${usdtDeposits.amountUsdtMicros})` } : {}),
    })
    .where(and(eq(usdtDeposits.id, id), eq(usdtDeposits.status, 'pending')))
    .returning();
  return row;
}

/** Who referred each of the users, and who referred those referrers, in one statement. */
export async function findReferrersOf(db: Executor, userIds: string[]): Promise<Map<string, { level1: string | undefined; level2: string | undefined }>> {
  if (userIds.length === 0) return new Map();
  const result = await db.execute<{ user_id: string; level1: string | null; level2: string | null }>(sql`
    select p1.user_id, p1.referred_by_user_id as level1, p2.referred_by_user_id as level2
    from profiles p1
    left join profiles p2 on p2.user_id = p1.referred_by_user_id
    where p1.user_id = any(${sql.param(userIds)}::uuid[])`);
  return new Map(result.rows.map((row) => [row.user_id, { level1: row.level1 ?? undefined, level2: row.level2 ?? undefined }]));
}

/** A final transfer to a customer's own deposit address, as the chain follower read it. */
export interface FollowedDepositValues {
  userId: string;
  amountUsdtMicros: bigint;
  transactionHash: string;
  toAddress: string;
  fromAddress: string;
  /** The transfer's position within its transaction: with the network and the hash, the credit key. */
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
}

/** A deposit insertFollowedDeposits recorded, with its customer's referrers when it was approved. */
export interface InsertedFollowedDeposit {
  id: string;
  userId: string;
  network: DepositNetwork;
  amountUsdtMicros: bigint;
  transactionHash: string;
  logIndex: number;
  status: 'approved' | 'pending';
  rejectionReason: null;
  level1: string | null;
  level2: string | null;
}

/**
 * Records a group's transfers to customers' own deposit addresses in one statement, each bound to its
 * transfer (the credit key: network, hash, position) with what the chain says: approved at once when
 * it reaches the minimum, else pending as "below the minimum" for an admin. A transfer a deposit
 * already stands for inserts nothing (read again after a reorganisation); the inserted ones come
 * back, the approved ones with who referred their customer (and that referrer's referrer), which a
 * separate statement used to read.
 */
const insertFollowedStatement = preparedStatement<InsertedFollowedDeposit>(
  'deposits_insert_followed',
  `with inserted as (
     insert into usdt_deposits (
       user_id, network, amount_usdt_micros, transaction_hash, deposit_address, chain_log_index, source, status, decided_at,
       chain_state, chain_problem, chain_amount_usdt_micros, chain_from_address, chain_to_address, chain_block_number, chain_block_hash,
       chain_checked_at, chain_delayed, chain_sender_proven)
     select t.user_id, $1::text, t.amount, t.transaction_hash, t.to_address, t.log_index, 'detected',
       case when t.amount >= $2::bigint then 'approved' else 'pending' end,
       case when t.amount >= $2::bigint then now() end,
       case when t.amount >= $2::bigint then 'confirmed' else 'mismatch' end,
       case when t.amount >= $2::bigint then null else 'below_minimum' end,
       t.amount, t.from_address, t.to_address, t.block_number, t.block_hash, now(), false, true
     from unnest($3::uuid[], $4::bigint[], $5::text[], $6::text[], $7::int[], $8::text[], $9::bigint[], $10::text[])
       with ordinality as t(user_id, amount, transaction_hash, to_address, log_index, from_address, block_number, block_hash, position)
     order by t.position
     on conflict (network, transaction_hash, chain_log_index) where chain_log_index is not null and status <> 'rejected' do nothing
     returning id, user_id, network, amount_usdt_micros, transaction_hash, chain_log_index, status
   )
   select i.id, i.user_id as "userId", i.network, i.amount_usdt_micros as "amountUsdtMicros", i.transaction_hash as "transactionHash",
     i.chain_log_index as "logIndex", i.status, null as "rejectionReason",
     p1.referred_by_user_id as level1, p2.referred_by_user_id as level2
   from inserted i
   left join profiles p1 on p1.user_id = i.user_id and i.status = 'approved'
   left join profiles p2 on p2.user_id = p1.referred_by_user_id`,
);

export async function insertFollowedDeposits(
  db: Executor,
  network: DepositNetwork,
  values: readonly FollowedDepositValues[],
  minimumUsdtMicros: bigint,
): Promise<InsertedFollowedDeposit[]> {
  if (values.length === 0) return [];
  const column = <Value>(pick: (value: FollowedDepositValues) => Value) => values.map(pick);
  return queryPreparedIn(db, insertFollowedStatement, [
    network,
    minimumUsdtMicros.toString(),
    column((value) => value.userId),
    column((value) => value.amountUsdtMicros.toString()),
    column((value) => value.transactionHash),
    column((value) => value.toAddress),
    column((value) => value.logIndex),
    column((value) => value.fromAddress),
    column((value) => value.blockNumber.toString()),
    column((value) => value.blockHash),
  ]);
}

/** Rows per statement of insertReferralRewards: well below PostgreSQL's limit of parameters a statement may have. */
const REWARD_ROWS_PER_STATEMENT = 1_000;

export async function insertReferralRewards(
  db: Executor,
  values: { referrerUserId: string; referredUserId: string; depositId: string; level: 1 | 2; rewardUsdtMicros: bigint }[],
): Promise<void> {
  for (let start = 0; start < values.length; start += REWARD_ROWS_PER_STATEMENT) {
    await db.insert(referralRewards).values(values.slice(start, start + REWARD_ROWS_PER_STATEMENT));
  }
}

const userSummary = { id: users.id, name: profiles.name, email: users.email, phone: profiles.phone };

export async function findWithUser(db: Executor, id: string): Promise<DepositWithUserRow | undefined> {
  const [row] = await db
    .select({ deposit: usdtDeposits, user: userSummary, cursorCreatedAt: cursorTimestamp(usdtDeposits.createdAt) })
    .from(usdtDeposits)
    .innerJoin(users, eq(users.id, usdtDeposits.userId))
    .innerJoin(profiles, eq(profiles.userId, usdtDeposits.userId))
    .where(eq(usdtDeposits.id, id));
  return row;
}

const depositColumnsOf = tableRowPicker(usdtDeposits);

const adminQueuePage = keysetList<DepositRow & PartyColumns<'customer'> & { rateNormalInrPaise: bigint }>({
  name: 'admin_deposits',
  // The normal rate prices each deposit in rupees for the admin; PostgreSQL reads it once per statement.
  select: `${tableRowColumns(usdtDeposits, 'd')}, ${partyColumns('u', 'p', 'customer')},
    (select s.rate_normal_inr_paise from admin_settings s where s.id = 1) as "rateNormalInrPaise"`,
  from: 'usdt_deposits d join users u on u.id = d.user_id join profiles p on p.user_id = d.user_id',
  alias: 'd',
  statuses: REQUEST_STATUSES,
});

/** The admin queue's page: deposits with their customers, newest first, each with the normal rate of now. */
export async function listWithUsers(
  db: Database,
  options: { status: RequestStatus | undefined; cursor: PageCursor | undefined; limit: number },
): Promise<(DepositWithUserRow & { rateNormalInrPaise: bigint })[]> {
  const rows = await adminQueuePage(db, options);
  return rows.map((row) => ({
    deposit: depositColumnsOf(row),
    user: partyOf(row, 'customer'),
    cursorCreatedAt: row.cursorCreatedAt,
    rateNormalInrPaise: row.rateNormalInrPaise,
  }));
}

/** Serializes one customer's deposit submissions, so the cap on waiting deposits holds under concurrency. */
export async function lockCustomer(db: Executor, userId: string): Promise<void> {
  await db.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.userId, userId)).for('no key update');
}

export async function countPendingForUser(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(usdtDeposits)
    .where(and(eq(usdtDeposits.userId, userId), eq(usdtDeposits.status, 'pending')));
  return row?.count ?? 0;
}

/** The deposit, locked until the end of the transaction: an approval's two-person check and the chain's verification wait for each other. */
export async function findByIdForUpdate(db: Executor, id: string): Promise<DepositRow | undefined> {
  const [row] = await db.select().from(usdtDeposits).where(eq(usdtDeposits.id, id)).for('update');
  return row;
}

/** The customers who proved the given sender addresses (comparison form) on the network, by address. */
export async function walletOwners(db: Executor, network: DepositNetwork, addressKeys: string[]): Promise<Map<string, string>> {
  if (addressKeys.length === 0) return new Map();
  const rows = await db
    .select({ addressKey: customerWallets.addressKey, userId: customerWallets.userId })
    .from(customerWallets)
    .where(and(eq(customerWallets.network, network), inArray(customerWallets.addressKey, addressKeys)));
  return new Map(rows.map((row) => [row.addressKey, row.userId]));
}

export type UnclaimedTransferRow = typeof unclaimedTransfers.$inferSelect;

/** Records an unclaimed transfer once; reading its block again adds nothing. */
export async function insertUnclaimedTransfer(
  db: Executor,
  values: {
    network: DepositNetwork;
    transactionHash: string;
    logIndex: number;
    fromAddress: string;
    toAddress: string;
    amountUsdtMicros: bigint;
    blockNumber: bigint;
  },
): Promise<boolean> {
  const rows = await db.insert(unclaimedTransfers).values(values).onConflictDoNothing().returning({ id: unclaimedTransfers.id });
  return rows.length > 0;
}

/** Open unclaimed transfers, newest first, without those whose transaction a customer has claimed since (a claim not rejected). */
export async function listOpenUnclaimed(db: Executor, limit: number): Promise<UnclaimedTransferRow[]> {
  return db
    .select()
    .from(unclaimedTransfers)
    .where(
      and(
        eq(unclaimedTransfers.status, 'open'),
        sql`not exists (select 1 from usdt_deposits d where d.network = ${unclaimedTransfers.network} and d.transaction_hash = ${unclaimedTransfers.transactionHash} and d.status <> 'rejected')`,
      ),
    )
    .orderBy(desc(unclaimedTransfers.createdAt), desc(unclaimedTransfers.id))
    .limit(limit);
}

export async function findUnclaimedForUpdate(db: Executor, id: string): Promise<UnclaimedTransferRow | undefined> {
  const [row] = await db.select().from(unclaimedTransfers).where(eq(unclaimedTransfers.id, id)).for('update');
  return row;
}

export async function markUnclaimedAssigned(db: Executor, id: string, depositId: string): Promise<void> {
  await db
    .update(unclaimedTransfers)
    .set({ status: 'assigned', depositId, resolvedAt: sql`now()` })
    .where(eq(unclaimedTransfers.id, id));
}

/** Whether a deposit that was not rejected names the transaction. */
export async function transactionClaimed(db: Executor, network: DepositNetwork, transactionHash: string): Promise<boolean> {
  const [row] = await db
    .select({ id: usdtDeposits.id })
    .from(usdtDeposits)
    .where(and(eq(usdtDeposits.network, network), eq(usdtDeposits.transactionHash, transactionHash), ne(usdtDeposits.status, 'rejected')))
    .limit(1);
  return row !== undefined;
}

export async function findUserIdByEmail(db: Executor, email: string): Promise<string | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row?.id;
}
