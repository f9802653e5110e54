import { and, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { DepositNetwork } from '#shared/contracts/enums';
import { MAX_USDT_MICROS } from '#shared/money';
import type { Executor } from '../../db/client.ts';
import { chainJobs, chainScanCursors, customerWallets, usdtDeposits } from '../../db/schema.ts';
import type { ChainFacts } from './assessment.ts';

export type ChainJobRow = typeof chainJobs.$inferSelect;

/** Adds the verification job of a new deposit; the worker of a process that reads its network picks it up. */
export async function enqueueDepositCheck(db: Executor, depositId: string, network: DepositNetwork): Promise<void> {
  await db.insert(chainJobs).values({ kind: 'verify_deposit', depositId, network }).onConflictDoNothing();
}

/** One scan job per network, created by whichever worker comes first. */
export async function ensureScanJob(db: Executor, network: DepositNetwork): Promise<void> {
  await db.insert(chainJobs).values({ kind: 'scan_network', network }).onConflictDoNothing();
}

/**
 * Claims due jobs of the given networks: rows another process holds are
 * skipped (FOR UPDATE SKIP LOCKED), and each claimed job's run_after moves a
 * lease ahead, so no other process takes it while this one works on it. A
 * process that dies mid-job leaves it to be taken again when the lease ends.
 */
export async function claimDueJobs(db: Executor, networks: DepositNetwork[], limit: number, leaseSeconds: number): Promise<ChainJobRow[]> {
  if (networks.length === 0) return [];
  const result = await db.execute<{ id: string }>(sql`
    with due as (
      select id from chain_jobs
      where finished_at is null and run_after <= now() and network in (${sql.join(
        networks.map((network) => sql`${network}`),
        sql`, `,
      )})
      order by run_after, id
      limit ${limit}
      for update skip locked
    )
    update chain_jobs set run_after = now() + make_interval(secs => ${leaseSeconds})
    where id in (select id from due)
    returning id`);
  const ids = result.rows.map((row) => BigInt(row.id));
  if (ids.length === 0) return [];
  return db.select().from(chainJobs).where(inArray(chainJobs.id, ids)).orderBy(chainJobs.runAfter, chainJobs.id);
}

export async function rescheduleJob(
  db: Executor,
  jobId: bigint,
  afterSeconds: number,
  outcome: { failed: false } | { failed: true; error: string },
): Promise<void> {
  await db
    .update(chainJobs)
    .set({
      runAfter: sql`now() + make_interval(secs => ${afterSeconds})`,
      failures: outcome.failed ? sql`${chainJobs.failures} + 1` : 0,
      lastError: outcome.failed ? outcome.error.slice(0, 500) : null,
    })
    .where(eq(chainJobs.id, jobId));
}

export async function finishJob(db: Executor, jobId: bigint): Promise<void> {
  await db
    .update(chainJobs)
    .set({ finishedAt: sql`now()`, lastError: null })
    .where(eq(chainJobs.id, jobId));
}

/** Checks a deposit again at once, whether or not its check had finished. */
export async function reopenDepositCheck(db: Executor, depositId: string, network: DepositNetwork): Promise<void> {
  await db
    .insert(chainJobs)
    .values({ kind: 'verify_deposit', depositId, network })
    .onConflictDoUpdate({
      target: chainJobs.depositId,
      targetWhere: sql`deposit_id is not null`,
      set: { finishedAt: null, runAfter: sql`now()`, failures: 0 },
    });
}

/** Checks again, at once, a customer's pending deposits on a network: a wallet they just proved may settle them. */
export async function reopenPendingChecks(db: Executor, userId: string, network: DepositNetwork): Promise<void> {
  await db.execute(sql`
    update chain_jobs set finished_at = null, run_after = now(), failures = 0
    where deposit_id in (select id from usdt_deposits where user_id = ${userId} and network = ${network} and status = 'pending')`);
}

export async function findDeposit(db: Executor, depositId: string): Promise<typeof usdtDeposits.$inferSelect | undefined> {
  const [row] = await db.select().from(usdtDeposits).where(eq(usdtDeposits.id, depositId));
  return row;
}

/** The deposit, locked until the end of the transaction so that a concurrent admin decision waits for this check. */
export async function lockDeposit(db: Executor, depositId: string): Promise<typeof usdtDeposits.$inferSelect | undefined> {
  const [row] = await db.select().from(usdtDeposits).where(eq(usdtDeposits.id, depositId)).for('update');
  return row;
}

/**
 * Serialises, until the end of the transaction, every write that binds deposits
 * to the Transfer logs of one on-chain transaction: a customer's submission of
 * its hash, detection, and verification. Each then sees the others' committed
 * deposits of that transaction, so two never take the same log and a submission
 * never races detection. Two 32-bit keys: a key space of its own.
 */
export async function lockChainTransaction(db: Executor, network: DepositNetwork, transactionHash: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('usdt-deposit-transaction'), hashtext(${`${network}:${transactionHash}`}))`);
}

/** lockChainTransaction for many transactions in one statement, in one order (by key) on every path that takes several. */
export async function lockChainTransactions(db: Executor, network: DepositNetwork, transactionHashes: string[]): Promise<void> {
  if (transactionHashes.length === 0) return;
  const keys = [...new Set(transactionHashes.map((hash) => `${network}:${hash}`))].sort();
  await db.execute(sql`
    select count(pg_advisory_xact_lock(hashtext('usdt-deposit-transaction'), hashtext(k.key)))
    from (select key from unnest(${sql.param(keys)}::text[]) with ordinality as t(key, n) order by n) as k`);
}

/**
 * Whether a deposit of the transaction still has to choose its log: one not
 * bound yet and not rejected (a customer's submission before it is final, or
 * one an admin approved before the chain was read). Detection leaves such a
 * transaction alone; the deposit records the transaction's other transfers
 * itself once it is bound (see verification.ts).
 */
export async function transactionHasUnboundDeposit(db: Executor, network: DepositNetwork, transactionHash: string): Promise<boolean> {
  const [row] = await db
    .select({ id: usdtDeposits.id })
    .from(usdtDeposits)
    .where(
      and(
        eq(usdtDeposits.network, network),
        eq(usdtDeposits.transactionHash, transactionHash),
        isNull(usdtDeposits.chainLogIndex),
        ne(usdtDeposits.status, 'rejected'),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The log indexes that deposits of the transaction stand for, other than `exceptDepositId`'s. */
export async function boundLogIndexes(db: Executor, network: DepositNetwork, transactionHash: string, exceptDepositId?: string): Promise<Set<number>> {
  const rows = await db
    .select({ logIndex: usdtDeposits.chainLogIndex })
    .from(usdtDeposits)
    .where(
      and(
        eq(usdtDeposits.network, network),
        eq(usdtDeposits.transactionHash, transactionHash),
        isNotNull(usdtDeposits.chainLogIndex),
        // A rejected claim released its transfer (decision 037).
        ne(usdtDeposits.status, 'rejected'),
        exceptDepositId === undefined ? undefined : ne(usdtDeposits.id, exceptDepositId),
      ),
    );
  return new Set(rows.flatMap((row) => (row.logIndex === null ? [] : [row.logIndex])));
}

/**
 * Stores what the chain says. A final, valid transfer also replaces the stored
 * amount with the on-chain amount (the typed one stays in typed_amount_usdt_micros).
 * `logIndex` is the log the deposit stands for (the credit key with network and
 * hash): kept once set, set when a submitted deposit's transfer is final.
 */
export async function recordChainFacts(
  db: Executor,
  depositId: string,
  facts: ChainFacts & { from: string | null; to: string | null; logIndex: number | null },
): Promise<void> {
  const amount =
    facts.transfer && facts.transfer.amountUsdtMicros > 0n && facts.transfer.amountUsdtMicros <= MAX_USDT_MICROS ? facts.transfer.amountUsdtMicros : null;
  const final = facts.state === 'confirmed' && facts.transfer !== undefined && amount !== null;
  await db
    .update(usdtDeposits)
    .set({
      chainState: facts.state,
      chainProblem: facts.problem,
      chainAmountUsdtMicros: amount,
      chainFromAddress: facts.from,
      chainToAddress: facts.to,
      chainConfirmations: facts.confirmations,
      chainRequiredConfirmations: facts.requiredConfirmations,
      chainBlockNumber: facts.blockNumber,
      chainLogIndex: facts.logIndex,
      chainCheckedAt: sql`now()`,
      chainDelayed: false,
      chainSenderProven: facts.senderProven,
      chainTransfersToAddress: facts.transfersToAddress,
      ...(final && amount !== null ? { amountUsdtMicros: amount } : {}),
    })
    .where(and(eq(usdtDeposits.id, depositId), eq(usdtDeposits.status, 'pending')));
}

/** Marks the deposits a provider outage holds up; cleared by the next successful check. */
export async function markDelayed(db: Executor, depositId: string): Promise<boolean> {
  const result = await db
    .update(usdtDeposits)
    .set({ chainDelayed: true })
    .where(and(eq(usdtDeposits.id, depositId), eq(usdtDeposits.chainDelayed, false), eq(usdtDeposits.status, 'pending')));
  return (result.rowCount ?? 0) > 0;
}

/** The customer who proved `addressKey` on the network, if any. */
export async function walletOwner(db: Executor, network: DepositNetwork, addressKey: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: customerWallets.userId })
    .from(customerWallets)
    .where(and(eq(customerWallets.network, network), eq(customerWallets.addressKey, addressKey)));
  return row?.userId;
}

/** Where the scan of the shared address (before the follower of decision 036) stopped: the follower's first start on Ethereum. */
export async function findScanCursor(db: Executor, network: DepositNetwork, depositAddress: string): Promise<bigint | undefined> {
  const [row] = await db
    .select({ scannedThrough: chainScanCursors.scannedThrough })
    .from(chainScanCursors)
    .where(and(eq(chainScanCursors.network, network), eq(chainScanCursors.depositAddress, depositAddress)));
  return row?.scannedThrough;
}

/**
 * A deposit for one Transfer log found without a submitted hash, bound to that
 * log from the start; undefined when a deposit already stands for the log.
 */
export async function insertDetectedDeposit(
  db: Executor,
  values: { userId: string; network: DepositNetwork; amountUsdtMicros: bigint; transactionHash: string; depositAddress: string; logIndex: number },
): Promise<string | undefined> {
  const { logIndex, ...rest } = values;
  const [row] = await db
    .insert(usdtDeposits)
    .values({ ...rest, chainLogIndex: logIndex, source: 'detected' })
    .onConflictDoNothing({
      target: [usdtDeposits.network, usdtDeposits.transactionHash, usdtDeposits.chainLogIndex],
      where: sql`chain_log_index is not null and status <> 'rejected'`,
    })
    .returning({ id: usdtDeposits.id });
  return row?.id;
}
