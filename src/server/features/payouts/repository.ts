import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { PAYOUT_PROVIDER_NAMES, type PayoutProviderName, type ProviderPayoutState } from '#shared/contracts/payouts';
import type { Executor } from '../../db/client.ts';
import { providerPayoutEvents, providerPayouts, providerWebhookEvents, withdrawalRequests } from '../../db/schema.ts';

export type ProviderPayoutRow = typeof providerPayouts.$inferSelect;
export type ProviderPayoutEventRow = typeof providerPayoutEvents.$inferSelect;

/** What a payout is sent with: its row and the withdrawal's stored payee. */
export interface DuePayout {
  payout: ProviderPayoutRow;
  withdrawal: { id: string; userId: string; reference: string; accountHolderName: string; accountNumber: string; ifscCode: string; upiId: string | null };
}

/** Withdrawals handed to a provider that have no payout row yet, oldest first, each with the provider it was handed to. */
export async function listRoutedWithoutPayout(
  db: Executor,
  limit: number,
): Promise<{ id: string; payoutRoute: PayoutProviderName; amountInrPaise: bigint; tdsInrPaise: bigint; upiId: string | null }[]> {
  return db
    .select({
      id: withdrawalRequests.id,
      payoutRoute: sql<PayoutProviderName>`${withdrawalRequests.payoutRoute}`,
      amountInrPaise: withdrawalRequests.amountInrPaise,
      tdsInrPaise: withdrawalRequests.tdsInrPaise,
      upiId: withdrawalRequests.upiId,
    })
    .from(withdrawalRequests)
    .where(
      and(
        eq(withdrawalRequests.status, 'processing'),
        inArray(withdrawalRequests.payoutRoute, [...PAYOUT_PROVIDER_NAMES]),
        sql`not exists (select 1 from provider_payouts p where p.withdrawal_id = ${withdrawalRequests.id})`,
      ),
    )
    .orderBy(asc(withdrawalRequests.createdAt))
    .limit(limit);
}

/** The payout row of a routed withdrawal; a second process inserting it at the same time changes nothing. */
export async function insertPayout(
  db: Executor,
  values: { withdrawalId: string; payoutRoute: PayoutProviderName; idempotencyKey: string; amountInrPaise: bigint; mode: ProviderPayoutRow['mode'] },
): Promise<void> {
  await db.insert(providerPayouts).values(values).onConflictDoNothing();
}

/**
 * Claims payouts that are due (to be sent, or asked about, a processed one for `reversalWatchHours` after it paid): rows another process holds are skipped (FOR UPDATE
 * SKIP LOCKED), and each claimed row's next attempt moves a lease ahead, so no other process takes it meanwhile.
 * A process that dies mid-request leaves the row to be taken again when the lease ends, and the same idempotency
 * key makes the second send find the first one's payout.
 */
export async function claimDue(
  db: Executor,
  provider: PayoutProviderName,
  limit: number,
  leaseSeconds: number,
  reversalWatchHours: number,
): Promise<DuePayout[]> {
  // Payouts still to settle come before processed ones watched for a reversal (decision 053). Only this provider's:
  // a payout another provider has is never sent or asked about here (decision 062).
  const claimed = await db.execute<{ withdrawal_id: string }>(sql`
    with due as (
      select withdrawal_id from provider_payouts
      where next_attempt_at <= now() and payout_route = ${provider}
        and (settled_at is null or (state = 'processed' and settled_at > now() - make_interval(hours => ${reversalWatchHours})))
      order by settled_at is not null, next_attempt_at, withdrawal_id
      limit ${limit}
      for update skip locked
    )
    update provider_payouts set next_attempt_at = now() + make_interval(secs => ${leaseSeconds})
    where withdrawal_id in (select withdrawal_id from due)
    returning withdrawal_id`);
  const ids = claimed.rows.map((row) => row.withdrawal_id);
  if (ids.length === 0) return [];
  return db
    .select({
      payout: providerPayouts,
      withdrawal: {
        id: withdrawalRequests.id,
        userId: withdrawalRequests.userId,
        reference: withdrawalRequests.reference,
        accountHolderName: withdrawalRequests.accountHolderName,
        accountNumber: withdrawalRequests.accountNumber,
        ifscCode: withdrawalRequests.ifscCode,
        upiId: withdrawalRequests.upiId,
      },
    })
    .from(providerPayouts)
    .innerJoin(withdrawalRequests, eq(withdrawalRequests.id, providerPayouts.withdrawalId))
    .where(inArray(providerPayouts.withdrawalId, ids))
    .orderBy(asc(providerPayouts.nextAttemptAt));
}

/** The next attempt in `afterSeconds`; a failure counts and is kept for admins, a success clears the error. */
export async function reschedule(db: Executor, withdrawalId: string, afterSeconds: number, error: string | null): Promise<void> {
  await db
    .update(providerPayouts)
    .set({
      nextAttemptAt: sql`now() + make_interval(secs => ${afterSeconds})`,
      attempts: sql`${providerPayouts.attempts} + 1`,
      lastError: error === null ? null : error.slice(0, 500),
      lastErrorAt: error === null ? null : sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(providerPayouts.withdrawalId, withdrawalId));
}

/**
 * Stamps the first request to the provider before it leaves (decision 049): from then on the payout may be at the
 * provider, so it is never held back, and only ever sent again under its one idempotency key.
 */
export async function markFirstSendStarted(db: Executor, withdrawalId: string): Promise<void> {
  await db
    .update(providerPayouts)
    .set({ sentAt: sql`coalesce(${providerPayouts.sentAt}, now())`, updatedAt: sql`now()` })
    .where(eq(providerPayouts.withdrawalId, withdrawalId));
}

export async function lockByWithdrawal(db: Executor, withdrawalId: string): Promise<ProviderPayoutRow | undefined> {
  const [row] = await db.select().from(providerPayouts).where(eq(providerPayouts.withdrawalId, withdrawalId)).for('update');
  return row;
}

export async function lockByProviderId(db: Executor, providerPayoutId: string): Promise<ProviderPayoutRow | undefined> {
  const [row] = await db.select().from(providerPayouts).where(eq(providerPayouts.providerPayoutId, providerPayoutId)).for('update');
  return row;
}

/** A payout by our withdrawal reference: a webhook may come before the answer to our send was stored. */
export async function lockByReference(db: Executor, reference: string): Promise<ProviderPayoutRow | undefined> {
  const [row] = await db
    .select({ payout: providerPayouts })
    .from(providerPayouts)
    .innerJoin(withdrawalRequests, eq(withdrawalRequests.id, providerPayouts.withdrawalId))
    .where(eq(withdrawalRequests.reference, reference))
    .for('update', { of: providerPayouts });
  return row?.payout;
}

export async function updatePayoutState(
  db: Executor,
  withdrawalId: string,
  values: {
    providerPayoutId: string | null;
    state: ProviderPayoutRow['state'];
    utr: string | null;
    statusReason: string | null;
    statusDescription: string | null;
  },
): Promise<ProviderPayoutRow> {
  const [row] = await db
    .update(providerPayouts)
    .set({
      ...values,
      statusReason: values.statusReason?.slice(0, 100) ?? null,
      statusDescription: values.statusDescription?.slice(0, 500) ?? null,
      sentAt: sql`coalesce(${providerPayouts.sentAt}, now())`,
      updatedAt: sql`now()`,
    })
    .where(eq(providerPayouts.withdrawalId, withdrawalId))
    .returning();
  if (!row) throw new Error(`provider payout ${withdrawalId} vanished under its lock`);
  return row;
}

export async function insertEvent(
  db: Executor,
  values: { withdrawalId: string; state: ProviderPayoutState; utr: string | null; reason: string | null; source: 'send' | 'webhook' | 'poll' },
): Promise<void> {
  await db.insert(providerPayoutEvents).values({ ...values, reason: values.reason?.slice(0, 500) ?? null });
}

export async function markSettled(db: Executor, withdrawalId: string): Promise<void> {
  await db
    .update(providerPayouts)
    .set({ settledAt: sql`now()`, lastError: null, lastErrorAt: null, updatedAt: sql`now()` })
    .where(eq(providerPayouts.withdrawalId, withdrawalId));
}

export async function recordProblem(db: Executor, withdrawalId: string, problem: string, retryAfterSeconds: number): Promise<void> {
  await db
    .update(providerPayouts)
    .set({
      lastError: problem.slice(0, 500),
      lastErrorAt: sql`now()`,
      nextAttemptAt: sql`now() + make_interval(secs => ${retryAfterSeconds})`,
      updatedAt: sql`now()`,
    })
    .where(eq(providerPayouts.withdrawalId, withdrawalId));
}

/**
 * A payout not settled that has an error or was handed to the provider more than `stuckMinutes` ago is stuck
 * (decision 049): one rule for the admins' list and for the once-only alert.
 */
function isStuck(stuckMinutes: number) {
  return sql`(${providerPayouts.settledAt} is null and (${providerPayouts.lastError} is not null or ${providerPayouts.createdAt} < now() - make_interval(mins => ${stuckMinutes})))`;
}

/** Stuck payouts, oldest first: the admins' alert. */
export async function listStuck(db: Executor, stuckMinutes: number, limit: number): Promise<{ payout: ProviderPayoutRow; reference: string }[]> {
  return db
    .select({ payout: providerPayouts, reference: withdrawalRequests.reference })
    .from(providerPayouts)
    .innerJoin(withdrawalRequests, eq(withdrawalRequests.id, providerPayouts.withdrawalId))
    .where(isStuck(stuckMinutes))
    .orderBy(asc(providerPayouts.createdAt))
    .limit(limit);
}

/** Marks stuck payouts not yet told to admins as told, and answers them: each is told once, by one process. */
export async function claimStuckNotAlerted(
  db: Executor,
  stuckMinutes: number,
  limit: number,
): Promise<{ withdrawalId: string; reference: string; lastError: string | null }[]> {
  const result = await db.execute<{ withdrawal_id: string; reference: string; last_error: string | null }>(sql`
    with stuck as (
      select provider_payouts.withdrawal_id from provider_payouts
      where provider_payouts.stuck_alerted_at is null and ${isStuck(stuckMinutes)}
      order by provider_payouts.created_at limit ${limit}
      for update skip locked
    )
    update provider_payouts p set stuck_alerted_at = now() from stuck, withdrawal_requests w
    where p.withdrawal_id = stuck.withdrawal_id and w.id = p.withdrawal_id
    returning p.withdrawal_id, w.reference, p.last_error`);
  return result.rows.map((row) => ({ withdrawalId: row.withdrawal_id, reference: row.reference, lastError: row.last_error }));
}

export async function clearProblem(db: Executor, withdrawalId: string): Promise<void> {
  await db
    .update(providerPayouts)
    .set({ lastError: null, lastErrorAt: null, updatedAt: sql`now()` })
    .where(eq(providerPayouts.withdrawalId, withdrawalId));
}

/** Records a webhook delivery; false when this event id was applied before. */
export async function recordWebhookEvent(db: Executor, values: { provider: string; eventId: string; event: string }): Promise<boolean> {
  const rows = await db.insert(providerWebhookEvents).values(values).onConflictDoNothing().returning({ eventId: providerWebhookEvents.eventId });
  return rows.length === 1;
}

/** Another withdrawal that already carries this UTR, if any. */
export async function withdrawalWithUtr(db: Executor, utr: string, exceptWithdrawalId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ reference: withdrawalRequests.reference })
    .from(withdrawalRequests)
    .where(and(eq(withdrawalRequests.payoutReference, utr), sql`${withdrawalRequests.id} <> ${exceptWithdrawalId}`))
    .limit(1);
  return row?.reference;
}

/** Marks a paid withdrawal reversed, once; undefined when it is not paid or was reversed already. */
export async function markReversed(db: Executor, withdrawalId: string): Promise<typeof withdrawalRequests.$inferSelect | undefined> {
  const [row] = await db
    .update(withdrawalRequests)
    .set({ reversedAt: sql`now()` })
    .where(and(eq(withdrawalRequests.id, withdrawalId), eq(withdrawalRequests.status, 'approved'), isNull(withdrawalRequests.reversedAt)))
    .returning();
  return row;
}

export async function findPayout(db: Executor, withdrawalId: string): Promise<ProviderPayoutRow | undefined> {
  const [row] = await db.select().from(providerPayouts).where(eq(providerPayouts.withdrawalId, withdrawalId));
  return row;
}

export async function listEvents(db: Executor, withdrawalId: string, limit: number): Promise<ProviderPayoutEventRow[]> {
  return db.select().from(providerPayoutEvents).where(eq(providerPayoutEvents.withdrawalId, withdrawalId)).orderBy(asc(providerPayoutEvents.id)).limit(limit);
}

/** Whether the withdrawal is the user's (a customer reads only their own payout). */
export async function isOwnWithdrawal(db: Executor, userId: string, withdrawalId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: withdrawalRequests.id })
    .from(withdrawalRequests)
    .where(and(eq(withdrawalRequests.id, withdrawalId), eq(withdrawalRequests.userId, userId)));
  return row !== undefined;
}

/** Our payouts by the provider's ids, with the withdrawal's reference and state, for reconciliation. */
export async function findByProviderIds(
  db: Executor,
  providerPayoutIds: string[],
): Promise<{ payout: ProviderPayoutRow; reference: string; withdrawalStatus: string; payoutReference: string | null; reversed: boolean }[]> {
  if (providerPayoutIds.length === 0) return [];
  return db
    .select({
      payout: providerPayouts,
      reference: withdrawalRequests.reference,
      withdrawalStatus: withdrawalRequests.status,
      payoutReference: withdrawalRequests.payoutReference,
      reversed: sql<boolean>`${withdrawalRequests.reversedAt} is not null`,
    })
    .from(providerPayouts)
    .innerJoin(withdrawalRequests, eq(withdrawalRequests.id, providerPayouts.withdrawalId))
    .where(inArray(providerPayouts.providerPayoutId, providerPayoutIds));
}

/**
 * Payouts whose send was started in [from, to). Without a route, those the provider gave an id (its list of
 * transactions must name each of them); with one, that route's payouts with or without the provider's id (one
 * without is a send whose answer was lost, asked of the provider by our reference).
 */
export async function listSentBetween(
  db: Executor,
  range: { from: Date; to: Date },
  limit: number,
  route?: PayoutProviderName,
): Promise<{ payout: ProviderPayoutRow; reference: string; reversed: boolean }[]> {
  return db
    .select({ payout: providerPayouts, reference: withdrawalRequests.reference, reversed: sql<boolean>`${withdrawalRequests.reversedAt} is not null` })
    .from(providerPayouts)
    .innerJoin(withdrawalRequests, eq(withdrawalRequests.id, providerPayouts.withdrawalId))
    .where(
      and(
        sql`${providerPayouts.sentAt} >= ${range.from.toISOString()}`,
        sql`${providerPayouts.sentAt} < ${range.to.toISOString()}`,
        route === undefined ? sql`${providerPayouts.providerPayoutId} is not null` : eq(providerPayouts.payoutRoute, route),
      ),
    )
    .orderBy(asc(providerPayouts.sentAt), asc(providerPayouts.withdrawalId))
    .limit(limit);
}
