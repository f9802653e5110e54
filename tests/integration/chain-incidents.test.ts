import { sql } from 'drizzle-orm';
import { CHAIN_INCIDENT_MESSAGES } from '#shared/contracts/chain-incidents';
import { usdtMicrosToWire } from '#shared/money';
import type { Hex } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEthereumTestBed, tickUntil, type EthereumTestBed } from '../fixtures/chain.ts';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { call, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import {
  addBankAccount,
  balanceMicros,
  approveWithdrawalPaid,
  expectLedgerConsistent,
  expectStatus,
  ledgerTransferCount,
  requestTransfer,
  requestWithdrawal,
} from '../fixtures/wallet.ts';

/*
 * Chain incidents (decisions 036 and 045) against a real EVM: a credited deposit whose transfer a
 * reorganisation (evm_snapshot/evm_revert) removed holds the customer's withdrawals AND transfers
 * to its amount, every admin is told, and an admin settles it (taken back through the ledger, or
 * written off), under two-person control once two admins exist; the hold lifts when settled.
 * The tests run in order: the first has one admin, the later ones two.
 */

const CONFIRMATIONS = 3;
let bed: EthereumTestBed;
let addressIndex = 0;
let firstAdmin: SignedUpUser;

beforeAll(async () => {
  bed = await startEthereumTestBed(CONFIRMATIONS);
  firstAdmin = await signUpAdminWithVerifiedPin(bed.harness);
}, 120_000);
afterEach(async () => expectLedgerConsistent(bed.harness));
afterAll(async () => bed.close());

async function query<Row extends Record<string, unknown>>(statement: ReturnType<typeof sql>): Promise<Row[]> {
  return (await bed.harness.database.handle.db.execute(statement)).rows as Row[];
}

/** A customer with an own deposit address, credited `amountUsdtMicros` by a transfer that a deeper reorganisation then removes: the open incident's id. */
async function customerWithVanishedDeposit(
  amountUsdtMicros: bigint,
  beforeReorganisation?: (user: SignedUpUser) => Promise<void>,
  signUp: Record<string, unknown> = {},
): Promise<{ user: SignedUpUser; incidentId: string; depositId: string }> {
  const { chain, harness, worker, usdt } = bed;
  const user = await signUpVerifiedUser(harness.app, signUp);
  const address = (await chain.newAccount()).address.toLowerCase() as Hex;
  addressIndex += 1;
  await harness.database.handle.db.execute(
    sql`insert into deposit_addresses (network, address_index, user_id, extended_public_key, address) values ('ERC20', ${addressIndex}, ${user.id}, 'xpub-of-the-incident-test', ${address})`,
  );
  const sender = await chain.newAccount();
  await chain.mint(usdt, sender.address, amountUsdtMicros);
  const snapshot = await chain.request('evm_snapshot');
  const hash = await chain.transfer(usdt, sender, address, amountUsdtMicros);
  await chain.mine(CONFIRMATIONS);
  await tickUntil(worker, async () => (await balanceMicros(harness, user.id)) === amountUsdtMicros);
  await beforeReorganisation?.(user);
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
  return { user, incidentId: incident.id, depositId: incident.deposit_id };
}

function settle(admin: SignedUpUser, incidentId: string, body: unknown) {
  return call(bed.harness.app, { method: 'POST', url: `/api/admin/chain-incidents/${incidentId}/settle`, cookie: admin.cookie, body });
}

async function incidentRow(incidentId: string) {
  const [row] = await query<{ resolution: string | null; resolution_reason: string | null; resolved_by_user_id: string | null }>(
    sql`select resolution, resolution_reason, resolved_by_user_id from chain_incidents where id = ${incidentId}`,
  );
  return row;
}

/** The incident notices a customer got (filed under deposits), oldest first. */
async function customerNotices(userId: string): Promise<{ title: string; body: string }[]> {
  return query<{ title: string; body: string }>(
    sql`select title, body from notifications where user_id = ${userId} and title in ('Deposit on hold', 'Deposit taken back', 'Deposit hold lifted') order by created_at, id`,
  );
}

describe('chain incidents', () => {
  it('holds transfers to other customers as it holds withdrawals, tells every admin, and one admin writes it off at once, lifting the hold', async () => {
    const { harness } = bed;
    const { user, incidentId, depositId } = await customerWithVanishedDeposit(27_000_000n);
    const recipient = await signUpVerifiedUser(harness.app);
    const ledgerBefore = await ledgerTransferCount(harness);

    const refusedTransfer = await requestTransfer(harness, user, { recipientEmail: recipient.email, amount: '10' });
    expect(refusedTransfer.statusCode).toBe(400);
    expect(refusedTransfer.json<{ error: { code: string; message: string } }>().error).toMatchObject({
      code: 'DEPOSIT_ON_HOLD',
      message: '27.000000 USDT of your balance is on hold while we check a deposit that is no longer on the blockchain. You can send the rest.',
    });
    const bankAccountId = await addBankAccount(harness, user);
    expect((await requestWithdrawal(harness, user, { amount: '10', bankAccountId })).statusCode).toBe(400);
    expect(await ledgerTransferCount(harness)).toBe(ledgerBefore);
    expect(await balanceMicros(harness, user.id)).toBe(27_000_000n);

    // Every admin is told, in the app (and by e-mail through the notification rows).
    const notices = await query<{ user_id: string; title: string; body: string }>(
      sql`select user_id, title, body from notifications where kind = 'deposit_incident'`,
    );
    expect(notices).toEqual([expect.objectContaining({ user_id: firstAdmin.id, title: 'A credited deposit is no longer on the blockchain' })]);
    expect(notices[0]?.body).toContain('27.00 USDT');
    // The customer is told too, under deposits, with the amount held.
    expect(await customerNotices(user.id)).toEqual([
      {
        title: 'Deposit on hold',
        body: 'Your credited deposit of 27.00 USDT (ERC20) is no longer on the blockchain. Withdrawals and transfers are held to that amount until it is settled.',
      },
    ]);

    // Customers cannot settle; bad input changes nothing.
    expect((await settle(user, incidentId, { resolution: 'written_off', reason: 'mine' })).statusCode).toBe(403);
    const noReason = await settle(firstAdmin, incidentId, { resolution: 'written_off', reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.body).toContain('Write why the incident is settled this way');
    expect((await settle(firstAdmin, incidentId, { resolution: 'reincluded', reason: 'found it' })).statusCode).toBe(400);
    expect((await settle(firstAdmin, '00000000-0000-4000-8000-000000000000', { resolution: 'written_off', reason: 'x' })).statusCode).toBe(404);
    expect((await incidentRow(incidentId))?.resolution).toBeNull();

    const settled = await settle(firstAdmin, incidentId, { resolution: 'written_off', reason: 'Exchange confirmed the payout; we absorb the loss' });
    expectStatus(settled, 200);
    expect(settled.json<{ incident: { resolution: string; depositId: string } }>().incident).toMatchObject({ resolution: 'written_off', depositId });
    expect(await incidentRow(incidentId)).toEqual({
      resolution: 'written_off',
      resolution_reason: 'Exchange confirmed the payout; we absorb the loss',
      resolved_by_user_id: firstAdmin.id,
    });
    expect(await balanceMicros(harness, user.id)).toBe(27_000_000n);
    expect((await customerNotices(user.id)).at(-1)).toEqual({
      title: 'Deposit hold lifted',
      body: 'The hold of 27.00 USDT on your wallet is lifted; the deposit (ERC20) stays credited.',
    });
    // The hold lifted: the transfer goes through now.
    expectStatus(await requestTransfer(harness, user, { recipientEmail: recipient.email, amount: '10' }), 201);
    // Settled once only.
    expect((await settle(firstAdmin, incidentId, { resolution: 'debited', reason: 'again' })).statusCode).toBe(409);
    const audit = await query<{ action: string }>(sql`select action from audit_log where target_id = ${incidentId}`);
    expect(audit.map((row) => row.action)).toEqual(['chain_incident.settle']);
  });

  it('takes back the referral rewards paid on a deposit that vanished when its incident is settled, once, and tells each referrer (decision 049)', async () => {
    const grandReferrer = await signUpVerifiedUser(bed.harness.app);
    const referrer = await signUpVerifiedUser(bed.harness.app, { referralCode: grandReferrer.referralCode });
    const { incidentId, depositId } = await customerWithVanishedDeposit(100_000_000n, undefined, { referralCode: referrer.referralCode });
    const rewards = await query<{ id: string; referrer_user_id: string; reward_usdt_micros: string }>(
      sql`select id, referrer_user_id, reward_usdt_micros::text from referral_rewards where deposit_id = ${depositId} order by level`,
    );
    expect(rewards.map((reward) => reward.referrer_user_id)).toEqual([referrer.id, grandReferrer.id]);
    expect(await balanceMicros(bed.harness, referrer.id)).toBe(BigInt(rewards[0]?.reward_usdt_micros ?? '0'));
    // While the incident is open the rewards stand: the transfer may still come back on the chain.
    expect(await query(sql`select 1 from referral_reward_reversals`)).toHaveLength(0);

    expectStatus(await settle(firstAdmin, incidentId, { resolution: 'written_off', reason: 'Customer already spent it' }), 200);
    expect(await balanceMicros(bed.harness, referrer.id)).toBe(0n);
    expect(await balanceMicros(bed.harness, grandReferrer.id)).toBe(0n);
    const reversals = await query<{ reward_id: string; incident_id: string; taken_back: string; written_off: string }>(
      sql`select reward_id, incident_id, taken_back_usdt_micros::text as taken_back, written_off_usdt_micros::text as written_off from referral_reward_reversals order by taken_back_usdt_micros desc`,
    );
    expect(reversals).toEqual(
      rewards.map((reward) => ({ reward_id: reward.id, incident_id: incidentId, taken_back: reward.reward_usdt_micros, written_off: '0' })),
    );
    const movements = await query<{ count: string }>(sql`select count(*)::text as count from ledger_transfers where reason = 'referral_reward_reversal'`);
    expect(movements[0]?.count).toBe('2');
    for (const who of [referrer, grandReferrer]) {
      const notices = await query<{ title: string }>(sql`select title from notifications where user_id = ${who.id} and title = 'Referral bonus taken back'`);
      expect(notices).toHaveLength(1);
      const summary = await call(bed.harness.app, { url: '/api/referrals', cookie: who.cookie });
      expect(summary.statusCode).toBe(200);
      expect(summary.json().totalEarnings).toBe(usdtMicrosToWire(0n));
    }
    // A second settlement is refused and takes nothing again.
    expect((await settle(firstAdmin, incidentId, { resolution: 'debited', reason: 'Again' })).statusCode).toBe(409);
    expect(await query(sql`select 1 from referral_reward_reversals`)).toHaveLength(2);
  });

  it('takes back only what a referrer still holds and writes off what they already spent, each reward once (decision 049)', async () => {
    const { harness } = bed;
    const grandReferrer = await signUpVerifiedUser(harness.app);
    const referrer = await signUpVerifiedUser(harness.app, { referralCode: grandReferrer.referralCode });
    const friend = await signUpVerifiedUser(harness.app);
    // 5,000 USDT pays the referrer 5 (0.1 %) and the grand referrer 1 (0.02 %). Before the reorganisation the
    // referrer sends 3 of the 5 on and the grand referrer all of theirs.
    const spent: { transferIds: string[] } = { transferIds: [] };
    const { incidentId, depositId } = await customerWithVanishedDeposit(
      5_000_000_000n,
      async () => {
        for (const [who, amount] of [
          [referrer, '3'],
          [grandReferrer, '1'],
        ] as const) {
          const sent = await requestTransfer(harness, who, { recipientEmail: friend.email, amount });
          expectStatus(sent, 201);
          spent.transferIds.push(sent.json<{ transfer: { id: string } }>().transfer.id);
        }
      },
      { referralCode: referrer.referralCode },
    );
    expect(await balanceMicros(harness, referrer.id)).toBe(2_000_000n);
    expect(await balanceMicros(harness, grandReferrer.id)).toBe(0n);
    const rewards = await query<{ id: string; referrer_user_id: string }>(
      sql`select id, referrer_user_id from referral_rewards where deposit_id = ${depositId} order by level`,
    );
    expect(rewards.map((reward) => reward.referrer_user_id)).toEqual([referrer.id, grandReferrer.id]);
    const movementsBefore = await ledgerTransferCount(harness);

    expectStatus(await settle(firstAdmin, incidentId, { resolution: 'debited', reason: 'The transfer is gone' }), 200);
    // The referrer gives back the 2 still held; the 3 spent and the grand referrer's 1 are the operator's loss.
    expect(await balanceMicros(harness, referrer.id)).toBe(0n);
    expect(await balanceMicros(harness, grandReferrer.id)).toBe(0n);
    const reversals = await query<{ reward_id: string; taken_back: string; written_off: string }>(
      sql`select reward_id, taken_back_usdt_micros::text as taken_back, written_off_usdt_micros::text as written_off from referral_reward_reversals
        where incident_id = ${incidentId}`,
    );
    expect(reversals).toEqual(
      expect.arrayContaining([
        { reward_id: rewards[0]?.id, taken_back: '2000000', written_off: '3000000' },
        { reward_id: rewards[1]?.id, taken_back: '0', written_off: '1000000' },
      ]),
    );
    expect(reversals).toHaveLength(2);
    // Two movements: the customer's debit and the referrer's 2; nothing is moved for a reward wholly spent.
    expect((await ledgerTransferCount(harness)) - movementsBefore).toBe(2n);
    const takenBack = await query<{ amount: string }>(
      sql`select amount_usdt_micros::text as amount from ledger_transfers where reason = 'referral_reward_reversal' and reference_id = ${rewards[0]?.id ?? ''}`,
    );
    expect(takenBack).toEqual([{ amount: '2000000' }]);
    const notices = await query<{ user_id: string; body: string }>(
      sql`select user_id, body from notifications where title = 'Referral bonus taken back' and user_id in (${referrer.id}, ${grandReferrer.id})`,
    );
    expect(notices.find((notice) => notice.user_id === referrer.id)?.body).toContain(
      '2.00 USDT were taken back from your wallet; the rest is not asked of you.',
    );
    expect(notices.find((notice) => notice.user_id === grandReferrer.id)?.body).toContain(
      '0.00 USDT were taken back from your wallet; the rest is not asked of you.',
    );
    expect(notices).toHaveLength(2);

    // What was spent stays spent: the transfers still go through to the friend, and nothing is taken again.
    for (const transferId of spent.transferIds) {
      expectStatus(await call(harness.app, { method: 'POST', url: `/api/admin/transfers/${transferId}/approve`, cookie: firstAdmin.cookie, body: {} }), 200);
    }
    expect(await balanceMicros(harness, friend.id)).toBe(4_000_000n);
    expect((await settle(firstAdmin, incidentId, { resolution: 'written_off', reason: 'Again' })).statusCode).toBe(409);
    expect(await query(sql`select 1 from referral_reward_reversals where incident_id = ${incidentId}`)).toHaveLength(2);
  });

  it('a transfer pending when a reward was written off and rejected later repays the written-off part, not the referrer (decision 045)', async () => {
    const { harness } = bed;
    const referrer = await signUpVerifiedUser(harness.app);
    const friend = await signUpVerifiedUser(harness.app);
    // 5,000 USDT pays the referrer 5; before the reorganisation they send 3 of them to a friend, still pending.
    let transferId = '';
    const { incidentId, depositId } = await customerWithVanishedDeposit(
      5_000_000_000n,
      async () => {
        const sent = await requestTransfer(harness, referrer, { recipientEmail: friend.email, amount: '3' });
        expectStatus(sent, 201);
        transferId = sent.json<{ transfer: { id: string } }>().transfer.id;
      },
      { referralCode: referrer.referralCode },
    );
    const [reward] = await query<{ id: string }>(sql`select id from referral_rewards where deposit_id = ${depositId}`);
    expectStatus(await settle(firstAdmin, incidentId, { resolution: 'written_off', reason: 'Exchange confirmed the payout' }), 200);
    // The 2 still held come back; the 3 held in the pending transfer count as spent for now.
    expect(await balanceMicros(harness, referrer.id)).toBe(0n);
    const reversalOf = () =>
      query<{ taken_back: string; written_off: string }>(
        sql`select taken_back_usdt_micros::text as taken_back, written_off_usdt_micros::text as written_off from referral_reward_reversals where reward_id = ${reward?.id ?? ''}`,
      );
    expect(await reversalOf()).toEqual([{ taken_back: '2000000', written_off: '3000000' }]);

    // Rejected, the transfer's 3 were never spent: they repay the reward, not the referrer.
    const rejected = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/transfers/${transferId}/reject`,
      cookie: firstAdmin.cookie,
      body: { reason: 'Not approved' },
    });
    expectStatus(rejected, 200);
    expect(await balanceMicros(harness, referrer.id)).toBe(0n);
    expect(await balanceMicros(harness, friend.id)).toBe(0n);
    expect(await reversalOf()).toEqual([{ taken_back: '5000000', written_off: '0' }]);
    const repaid = await query<{ amount: string }>(
      sql`select amount_usdt_micros::text as amount from ledger_transfers where reason = 'referral_reward_reversal' and reference_id = ${reward?.id ?? ''} order by id`,
    );
    expect(repaid).toEqual([{ amount: '2000000' }, { amount: '3000000' }]);
    const notices = await query(sql`select 1 from notifications where user_id = ${referrer.id} and title = 'Referral bonus taken back'`);
    expect(notices).toHaveLength(2);
  });

  it('with two admins, a settlement that takes the amount back waits for a second admin, then debits the balance through the ledger and lifts the hold', async () => {
    const { harness } = bed;
    const secondAdmin = await signUpAdminWithVerifiedPin(harness);
    const { user, incidentId } = await customerWithVanishedDeposit(15_000_000n);
    const recipient = await signUpVerifiedUser(harness.app);

    const first = await settle(firstAdmin, incidentId, { resolution: 'debited', reason: 'The transfer is gone; take it back' });
    expectStatus(first, 202);
    const changeId = first.json<{ pendingChange: { id: string; kind: string } }>().pendingChange.id;
    expect(first.json<{ pendingChange: { kind: string } }>().pendingChange.kind).toBe('chain_incident_settlement');
    // Nothing applied yet: the balance and the hold stay.
    expect(await balanceMicros(harness, user.id)).toBe(15_000_000n);
    expect((await incidentRow(incidentId))?.resolution).toBeNull();
    expect((await requestTransfer(harness, user, { recipientEmail: recipient.email, amount: '1' })).statusCode).toBe(400);
    // A second settlement request, by either admin, waits behind the first.
    expect((await settle(secondAdmin, incidentId, { resolution: 'written_off', reason: 'other view' })).statusCode).toBe(409);
    // The requester cannot confirm their own.
    expect((await call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${changeId}/confirm`, cookie: firstAdmin.cookie })).statusCode).toBe(
      403,
    );

    const confirmed = await call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${changeId}/confirm`, cookie: secondAdmin.cookie });
    expectStatus(confirmed, 200);
    expect(await balanceMicros(harness, user.id)).toBe(0n);
    expect(await incidentRow(incidentId)).toEqual({
      resolution: 'debited',
      resolution_reason: 'The transfer is gone; take it back',
      resolved_by_user_id: secondAdmin.id,
    });
    const reversals = await query<{ amount_usdt_micros: bigint }>(
      sql`select amount_usdt_micros from ledger_transfers where reason = 'deposit_reversal' and from_account_id = (select id from ledger_accounts where user_id = ${user.id})`,
    );
    expect(reversals).toEqual([{ amount_usdt_micros: 15_000_000n }]);
    // The customer learns what was taken and why.
    expect((await customerNotices(user.id)).map((notice) => notice.title)).toEqual(['Deposit on hold', 'Deposit taken back']);
    expect((await customerNotices(user.id)).at(-1)?.body).toBe(
      '15.00 USDT were taken from your wallet: your deposit (ERC20) is no longer on the blockchain. Reason: The transfer is gone; take it back',
    );
    const incidents = await call(harness.app, { url: '/api/admin/chain-incidents', cookie: secondAdmin.cookie });
    expect(incidents.json<{ items: unknown[] }>().items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: incidentId, resolution: 'debited', amount: '15.000000' })]),
    );
  });

  it('refuses to take back more than the customer still holds, changing nothing; the change can be discarded and the incident written off instead', async () => {
    const { harness } = bed;
    // The customer asked for a withdrawal of part of it before the reorganisation was seen.
    const { user, incidentId } = await customerWithVanishedDeposit(19_000_000n, async (customer) => {
      const bankAccountId = await addBankAccount(harness, customer);
      expectStatus(await requestWithdrawal(harness, customer, { amount: '12', bankAccountId }), 201);
    });

    const first = await settle(firstAdmin, incidentId, { resolution: 'debited', reason: 'take it back' });
    expectStatus(first, 202);
    const changeId = first.json<{ pendingChange: { id: string } }>().pendingChange.id;
    const other = await signUpAdminWithVerifiedPin(harness);
    const ledgerBefore = await ledgerTransferCount(harness);
    const refused = await call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${changeId}/confirm`, cookie: other.cookie });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ error: { message: string } }>().error.message).toBe(
      "The customer's balance is 7.000000 USDT, less than the 19.000000 USDT to take back. Settle it as written off, with the reason, or wait until the balance covers it.",
    );
    expect(await ledgerTransferCount(harness)).toBe(ledgerBefore);
    expect(await balanceMicros(harness, user.id)).toBe(7_000_000n);
    expect((await incidentRow(incidentId))?.resolution).toBeNull();
    expectStatus(await call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${changeId}/discard`, cookie: firstAdmin.cookie }), 200);
    expectStatus(await settle(firstAdmin, incidentId, { resolution: 'written_off', reason: 'write it off' }), 202);
  });

  it('a withdrawal asked before the reorganisation is neither approved nor put in a bank file while the incident is open', async () => {
    const { harness } = bed;
    let withdrawalId = '';
    const { user, incidentId } = await customerWithVanishedDeposit(20_000_000n, async (customer) => {
      const bankAccountId = await addBankAccount(harness, customer);
      const asked = await requestWithdrawal(harness, customer, { amount: '5', bankAccountId });
      expectStatus(asked, 201);
      withdrawalId = asked.json<{ withdrawal: { id: string } }>().withdrawal.id;
    });
    const ledgerBefore = await ledgerTransferCount(harness);
    const approval = await approveWithdrawalPaid(harness, firstAdmin, withdrawalId);
    expect(approval.statusCode).toBe(409);
    expect(approval.json<{ error: { code: string; message: string } }>().error).toMatchObject({
      code: 'DEPOSIT_ON_HOLD',
      message: CHAIN_INCIDENT_MESSAGES.approvalHeld,
    });
    const named = await call(harness.app, {
      method: 'POST',
      url: '/api/admin/payout-batches',
      cookie: firstAdmin.cookie,
      body: { withdrawalIds: [withdrawalId] },
    });
    expect(named.statusCode).toBe(409);
    expect(named.json<{ error: { message: string } }>().error.message).toBe(CHAIN_INCIDENT_MESSAGES.batchHeld([withdrawalId]));
    // A batch of the oldest pending withdrawals leaves it out.
    await call(harness.app, { method: 'POST', url: '/api/admin/payout-batches', cookie: firstAdmin.cookie, body: {} });
    expect(
      await query<{ status: string; payout_batch_id: string | null }>(sql`select status, payout_batch_id from withdrawal_requests where id = ${withdrawalId}`),
    ).toEqual([{ status: 'pending', payout_batch_id: null }]);
    expect(await ledgerTransferCount(harness)).toBe(ledgerBefore);
    expect(await balanceMicros(harness, user.id)).toBe(15_000_000n);

    // Once the incident is settled the withdrawal can go.
    const settling = await settle(firstAdmin, incidentId, { resolution: 'written_off', reason: 'The exchange confirmed the payout' });
    const changeId = settling.json<{ pendingChange?: { id: string } }>().pendingChange?.id;
    if (changeId)
      expectStatus(
        await call(harness.app, {
          method: 'POST',
          url: `/api/admin/pending-changes/${changeId}/confirm`,
          cookie: (await signUpAdminWithVerifiedPin(harness)).cookie,
        }),
        200,
      );
    expect((await incidentRow(incidentId))?.resolution).toBe('written_off');
    expectStatus(await approveWithdrawalPaid(harness, firstAdmin, withdrawalId), 200);
    await expectLedgerConsistent(harness);
  });
});
