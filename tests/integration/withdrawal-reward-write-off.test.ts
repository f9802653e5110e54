import { sql } from 'drizzle-orm';
import pino from 'pino';
import type { Hex } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPayoutWorker, payoutProviderFromConfig, type PayoutWorker } from '../../src/server/features/payouts/worker.ts';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { startEthereumTestBed, tickUntil, type EthereumTestBed } from '../fixtures/chain.ts';
import { startRazorpayXStandIn, type RazorpayXStandIn } from '../fixtures/razorpayx-stand-in.ts';
import { call, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { addBankAccount, balanceMicros, decide, expectLedgerConsistent, expectStatus, fundWallet, requestWithdrawal } from '../fixtures/wallet.ts';

/*
 * A referral reward taken back after its deposit vanished from the chain is taken as far as the referrer's wallet
 * holds it; the rest is written off (decision 049). Money held in a withdrawal of the referrer's made before the
 * write-off was not spent: when that withdrawal is refunded (an admin's reject, the customer's cancel, the payout
 * provider's failure, a reversal after it paid), the refund first repays the written-off part (decision 045), as a
 * rejected transfer's refund does. Real chain (reorganised with evm_snapshot/evm_revert), real PostgreSQL, the
 * RazorpayX stand-in; the ledger check passes after each test.
 */

const CONFIRMATIONS = 3;
let bed: EthereumTestBed;
let standIn: RazorpayXStandIn;
let admin: SignedUpUser;
let payoutWorker: PayoutWorker;
let addressIndex = 0;

beforeAll(async () => {
  standIn = await startRazorpayXStandIn();
  bed = await startEthereumTestBed(CONFIRMATIONS, undefined, { payoutProvider: standIn.config });
  admin = await signUpAdminWithVerifiedPin(bed.harness);
  payoutWorker = createPayoutWorker({
    db: bed.harness.database.handle.db,
    provider: payoutProviderFromConfig(standIn.config),
    pollSeconds: 1,
    stuckMinutes: standIn.config.stuckMinutes,
    log: pino({ level: 'silent' }),
  });
  standIn.deliverWebhooksTo(async (body, headers) => {
    const response = await bed.harness.app.inject({ method: 'POST', url: '/api/webhooks/razorpayx', headers, payload: body });
    return response.statusCode;
  });
}, 120_000);
afterEach(async () => expectLedgerConsistent(bed.harness));
afterAll(async () => {
  await bed.close();
  await standIn.close();
});

async function query<Row extends Record<string, unknown>>(statement: ReturnType<typeof sql>): Promise<Row[]> {
  return (await bed.harness.database.handle.db.execute(statement)).rows as Row[];
}

interface WrittenOff {
  referrer: SignedUpUser;
  withdrawalId: string;
  rewardId: string;
  bankAccountId: string;
}

interface RewardAtRisk extends WrittenOff {
  incidentId: string;
}

/**
 * A referrer paid 5 USDT on a friend's 5,000 USDT deposit, who asks to withdraw 3 of them; then the deposit vanishes
 * in a reorganisation and the admin writes the incident off: 2 are taken back, 3 written off, the withdrawal pending.
 */
async function rewardWrittenOffWhileWithdrawing(): Promise<WrittenOff> {
  const atRisk = await rewardAtRiskWhileWithdrawing();
  expectStatus(await settleWrittenOff(atRisk.incidentId), 200);
  expect(await balanceMicros(bed.harness, atRisk.referrer.id)).toBe(0n);
  expect(await reversalOf(atRisk.rewardId)).toEqual([{ taken_back: '2000000', written_off: '3000000' }]);
  return atRisk;
}

function settleWrittenOff(incidentId: string) {
  return call(bed.harness.app, {
    method: 'POST',
    url: `/api/admin/chain-incidents/${incidentId}/settle`,
    cookie: admin.cookie,
    body: { resolution: 'written_off', reason: 'Exchange confirmed the payout' },
  });
}

/** The same referrer and withdrawal with the deposit's incident open, not settled yet. */
async function rewardAtRiskWhileWithdrawing(): Promise<RewardAtRisk> {
  const { chain, harness, worker, usdt } = bed;
  const referrer = await signUpVerifiedUser(harness.app);
  const friend = await signUpVerifiedUser(harness.app, { referralCode: referrer.referralCode });
  const bankAccountId = await addBankAccount(harness, referrer);
  const address = (await chain.newAccount()).address.toLowerCase() as Hex;
  addressIndex += 1;
  await harness.database.handle.db.execute(
    sql`insert into deposit_addresses (network, address_index, user_id, extended_public_key, address) values ('ERC20', ${addressIndex}, ${friend.id}, 'xpub-of-the-write-off-test', ${address})`,
  );
  const sender = await chain.newAccount();
  await chain.mint(usdt, sender.address, 5_000_000_000n);
  const snapshot = await chain.request('evm_snapshot');
  const hash = await chain.transfer(usdt, sender, address, 5_000_000_000n);
  await chain.mine(CONFIRMATIONS);
  await tickUntil(worker, async () => (await balanceMicros(harness, referrer.id)) === 5_000_000n);
  const requested = await requestWithdrawal(harness, referrer, { amount: '3', bankAccountId });
  expectStatus(requested, 201);
  const withdrawalId = requested.json<{ withdrawal: { id: string } }>().withdrawal.id;
  await chain.request('evm_revert', [snapshot]);
  await chain.mine(CONFIRMATIONS + 6);
  const incidentOf = async () =>
    (
      await query<{ id: string; deposit_id: string }>(
        sql`select i.id, i.deposit_id from chain_incidents i join usdt_deposits d on d.id = i.deposit_id where d.transaction_hash = ${hash.toLowerCase()} and i.resolved_at is null`,
      )
    )[0];
  await tickUntil(worker, async () => (await incidentOf()) !== undefined, 12);
  const incident = await incidentOf();
  if (!incident) throw new Error('no incident opened');
  const [reward] = await query<{ id: string }>(sql`select id from referral_rewards where deposit_id = ${incident.deposit_id}`);
  if (!reward) throw new Error('no referral reward paid');
  return { referrer, withdrawalId, rewardId: reward.id, bankAccountId, incidentId: incident.id };
}

function reversalOf(rewardId: string) {
  return query<{ taken_back: string; written_off: string }>(
    sql`select taken_back_usdt_micros::text as taken_back, written_off_usdt_micros::text as written_off from referral_reward_reversals where reward_id = ${rewardId}`,
  );
}

/** The refund repaid the 3 written off: the referrer keeps nothing, the reward is wholly taken back and they are told twice. */
async function expectWriteOffRepaid(writtenOff: WrittenOff): Promise<void> {
  expect(await balanceMicros(bed.harness, writtenOff.referrer.id)).toBe(0n);
  expect(await reversalOf(writtenOff.rewardId)).toEqual([{ taken_back: '5000000', written_off: '0' }]);
  const repaid = await query<{ amount: string }>(
    sql`select amount_usdt_micros::text as amount from ledger_transfers where reason = 'referral_reward_reversal' and reference_id = ${writtenOff.rewardId} order by id`,
  );
  expect(repaid).toEqual([{ amount: '2000000' }, { amount: '3000000' }]);
  const notices = await query(sql`select 1 from notifications where user_id = ${writtenOff.referrer.id} and title = 'Referral bonus taken back'`);
  expect(notices).toHaveLength(2);
}

async function withdrawalStatus(withdrawalId: string): Promise<{ status: string; reversed_at: Date | null } | undefined> {
  return (await query<{ status: string; reversed_at: Date | null }>(sql`select status, reversed_at from withdrawal_requests where id = ${withdrawalId}`))[0];
}

/** The admin approves the pending withdrawal, which goes to the provider, and the payout worker sends it: the provider's payout id. */
async function sentToProvider(withdrawalId: string): Promise<string> {
  expectStatus(await decide(bed.harness, admin, 'withdrawals', withdrawalId, 'approve'), 200);
  await payoutWorker.tick();
  const [payout] = await query<{ provider_payout_id: string | null }>(
    sql`select provider_payout_id from provider_payouts where withdrawal_id = ${withdrawalId}`,
  );
  if (!payout?.provider_payout_id) throw new Error('the payout was not sent');
  return payout.provider_payout_id;
}

describe('a withdrawal refunded after a reward was written off (decision 045)', () => {
  it("an admin's reject repays the written-off part, not the referrer", async () => {
    const writtenOff = await rewardWrittenOffWhileWithdrawing();
    const rejected = await decide(bed.harness, admin, 'withdrawals', writtenOff.withdrawalId, 'reject', { reason: 'Not approved' });
    expectStatus(rejected, 200);
    expect((await withdrawalStatus(writtenOff.withdrawalId))?.status).toBe('rejected');
    await expectWriteOffRepaid(writtenOff);
  });

  it("the customer's cancel repays the written-off part, not the referrer", async () => {
    const writtenOff = await rewardWrittenOffWhileWithdrawing();
    const cancelled = await call(bed.harness.app, {
      method: 'POST',
      url: `/api/withdrawals/${writtenOff.withdrawalId}/cancel`,
      cookie: writtenOff.referrer.cookie,
    });
    expectStatus(cancelled, 200);
    expect((await withdrawalStatus(writtenOff.withdrawalId))?.status).toBe('cancelled');
    await expectWriteOffRepaid(writtenOff);
  });

  it("the payout provider's failure repays the written-off part, not the referrer", async () => {
    const writtenOff = await rewardWrittenOffWhileWithdrawing();
    const payoutId = await sentToProvider(writtenOff.withdrawalId);
    expect(
      await standIn.changeState(payoutId, 'failed', { reason: 'bank_account_closed', description: 'Payout failed as the beneficiary account is closed.' }),
    ).toBe(200);
    expect((await withdrawalStatus(writtenOff.withdrawalId))?.status).toBe('rejected');
    await expectWriteOffRepaid(writtenOff);
  });

  it('a reversal at the provider after the payout was paid repays the written-off part, not the referrer', async () => {
    const writtenOff = await rewardWrittenOffWhileWithdrawing();
    const payoutId = await sentToProvider(writtenOff.withdrawalId);
    expect(await standIn.changeState(payoutId, 'processed', { utr: `${String(Date.now()).slice(-7)}00001` })).toBe(200);
    expect((await withdrawalStatus(writtenOff.withdrawalId))?.status).toBe('approved');
    expect(await standIn.changeState(payoutId, 'reversed', { reason: 'beneficiary_bank_offline', description: 'Beneficiary bank systems are offline' })).toBe(
      200,
    );
    expect((await withdrawalStatus(writtenOff.withdrawalId))?.reversed_at).not.toBeNull();
    await expectWriteOffRepaid(writtenOff);
  });

  it('a withdrawal made after the write-off is refunded in full; the one held before it still repays the write-off', async () => {
    const writtenOff = await rewardWrittenOffWhileWithdrawing();
    // Money the referrer holds after the write-off was never counted as spent: its refund is theirs.
    await fundWallet(bed.harness, admin, writtenOff.referrer, '10');
    const later = await requestWithdrawal(bed.harness, writtenOff.referrer, { amount: '4', bankAccountId: writtenOff.bankAccountId });
    expectStatus(later, 201);
    const laterId = later.json<{ withdrawal: { id: string } }>().withdrawal.id;
    expectStatus(await decide(bed.harness, admin, 'withdrawals', laterId, 'reject', { reason: 'Not approved' }), 200);
    expect(await balanceMicros(bed.harness, writtenOff.referrer.id)).toBe(10_000_000n);
    expect(await reversalOf(writtenOff.rewardId)).toEqual([{ taken_back: '2000000', written_off: '3000000' }]);
    // The withdrawal held before the write-off is then refunded: its 3 repay the 3 written off, the 10 stay.
    expectStatus(await decide(bed.harness, admin, 'withdrawals', writtenOff.withdrawalId, 'reject', { reason: 'Not approved' }), 200);
    expect(await balanceMicros(bed.harness, writtenOff.referrer.id)).toBe(10_000_000n);
    expect(await reversalOf(writtenOff.rewardId)).toEqual([{ taken_back: '5000000', written_off: '0' }]);
  });

  it("an incident's write-off and the reject of the referrer's withdrawal running together: the write-off sees the refund", async () => {
    const atRisk = await rewardAtRiskWhileWithdrawing();
    // A separate connection holds the referrer's wallet account, so that both requests are inside their transactions
    // at once: the reject has to wait for it before its refund, the settlement before (or, unserialized, after) its
    // balance read.
    const holder = await bed.harness.database.handle.db.$client.connect();
    try {
      await holder.query('begin');
      await holder.query(`select id from ledger_accounts where kind = 'customer_wallet' and user_id = $1 for update`, [atRisk.referrer.id]);
      const rejecting = decide(bed.harness, admin, 'withdrawals', atRisk.withdrawalId, 'reject', { reason: 'Not approved' });
      await waitForLockWaiters(1);
      const settling = settleWrittenOff(atRisk.incidentId);
      await waitForLockWaiters(2);
      await holder.query('commit');
      expectStatus(await rejecting, 200);
      expectStatus(await settling, 200);
    } finally {
      holder.release();
    }
    // Unserialized, the settlement wrote off 3 of a balance read before the refund, and the refund, having read no
    // write-off, paid the 3 to the wallet as well: the operator lost 3 the referrer holds.
    expect(await balanceMicros(bed.harness, atRisk.referrer.id)).toBe(0n);
    expect(await reversalOf(atRisk.rewardId)).toEqual([{ taken_back: '5000000', written_off: '0' }]);
  });

  it('a withdrawal held after the settlement began but before it read the balance repays the write-off', async () => {
    const atRisk = await rewardAtRiskWhileWithdrawing();
    // The settlement's transaction starts and waits for the incident's row; meanwhile the referrer holds the last 2.
    const holder = await bed.harness.database.handle.db.$client.connect();
    let laterId: string;
    let settling: ReturnType<typeof settleWrittenOff>;
    try {
      await holder.query('begin');
      await holder.query('select id from chain_incidents where id = $1 for update', [atRisk.incidentId]);
      settling = settleWrittenOff(atRisk.incidentId);
      await waitForLockWaiters(1);
      const later = await requestWithdrawal(bed.harness, atRisk.referrer, { amount: '2', bankAccountId: atRisk.bankAccountId });
      expectStatus(later, 201);
      laterId = later.json<{ withdrawal: { id: string } }>().withdrawal.id;
      await holder.query('commit');
    } finally {
      holder.release();
    }
    expectStatus(await settling, 200);
    // The balance read found both withdrawals holding the referrer's money: all 5 written off, each hold counted as spent.
    expect(await reversalOf(atRisk.rewardId)).toEqual([{ taken_back: '0', written_off: '5000000' }]);
    // Stamped at its transaction's start, the write-off looked older than this hold, whose refund then did not repay it.
    expectStatus(await decide(bed.harness, admin, 'withdrawals', laterId, 'reject', { reason: 'Not approved' }), 200);
    expect(await balanceMicros(bed.harness, atRisk.referrer.id)).toBe(0n);
    expect(await reversalOf(atRisk.rewardId)).toEqual([{ taken_back: '2000000', written_off: '3000000' }]);
  });
});

/** Waits until `count` sessions of the test's database wait for a lock. */
async function waitForLockWaiters(count: number): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const [row] = await query<{ waiting: number }>(
      sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if ((row?.waiting ?? 0) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`fewer than ${count} sessions waited for a lock`);
}
