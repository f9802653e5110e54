import { sql } from 'drizzle-orm';
import type { Hex, PrivateKeyAccount } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEthereumClient } from '../../src/server/features/chain/ethereum-client.ts';
import type { ChainWorker } from '../../src/server/features/chain/worker.ts';
import { addEthereumWallet, readDeposit, startTestWorker, tickUntil } from '../fixtures/chain.ts';
import { startLocalChain, type LocalChain } from '../fixtures/evm-chain.ts';
import { call, createTestApp, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { balanceMicros, decide, expectLedgerConsistent, expectStatus } from '../fixtures/wallet.ts';

/*
 * Decision 037: no credit that the chain refutes. Against a real EVM (Hardhat over JSON-RPC) with a
 * 6-decimal token; final means 3 confirmations. The tests run in order: the first part with one
 * admin, the second with two.
 */

const CONFIRMATIONS = 3;
let chain: LocalChain;
let harness: TestApp;
let worker: ChainWorker;
let usdt: Hex;
let operator: PrivateKeyAccount;
let firstAdmin: SignedUpUser;

beforeAll(async () => {
  chain = await startLocalChain();
  usdt = await chain.deployToken();
  operator = await chain.newAccount();
  harness = await createTestApp();
  await harness.database.handle.db.execute(
    sql`update admin_settings set erc20_address = ${operator.address}, trc20_address = 'TJYeasTPa6gpEEfYqNWcuJUMUb9qvQJp2u' where id = 1`,
  );
  worker = startTestWorker(harness, [createEthereumClient({ rpcUrl: chain.rpcUrl, usdtContract: usdt, confirmations: CONFIRMATIONS })]);
  await worker.tick();
  firstAdmin = await signUpAdminWithVerifiedPin(harness);
}, 120_000);
afterEach(async () => expectLedgerConsistent(harness));
afterAll(async () => {
  await worker.stop();
  await harness.close();
  await chain.close();
});

async function fundedAccount(amountUsdtMicros = 1_000_000_000n): Promise<PrivateKeyAccount> {
  const account = await chain.newAccount();
  await chain.mint(usdt, account.address, amountUsdtMicros);
  return account;
}

function submit(user: SignedUpUser, transactionHash: string, amount: string) {
  return call(harness.app, { method: 'POST', url: '/api/deposits', cookie: user.cookie, body: { network: 'ERC20', amount, transactionHash } });
}

async function submitted(user: SignedUpUser, transactionHash: string, amount: string): Promise<string> {
  const response = await submit(user, transactionHash, amount);
  expectStatus(response, 201);
  return response.json<{ deposit: { id: string } }>().deposit.id;
}

async function depositRows(hash: string) {
  const result = await harness.database.handle.db.execute<{
    id: string;
    user_id: string;
    source: string;
    status: string;
    chain_log_index: number | null;
    amount_usdt_micros: bigint;
  }>(
    sql`select id, user_id, source, status, chain_log_index, amount_usdt_micros from usdt_deposits where transaction_hash = ${hash.toLowerCase()} order by created_at`,
  );
  return result.rows;
}

describe('with one admin', () => {
  it('refuses one admin’s approval of a reverted transaction claimed as 999,999 USDT, and credits nothing', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const account = await fundedAccount();
    const hash = await chain.revertedTransfer(usdt, account, operator.address, 20_000_000n);
    await chain.mine(CONFIRMATIONS);
    const depositId = await submitted(user, hash, '999999');
    await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).chain.state === 'failed');

    const answer = await decide(harness, firstAdmin, 'deposits', depositId, 'approve', { reason: 'The customer sent a screenshot' });
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({
      error: {
        code: 'CHAIN_REFUTES',
        message:
          'The blockchain refutes this deposit: the transaction failed on the blockchain. One admin cannot credit it; a second admin is needed (one approves with a written reason, the other confirms).',
      },
    });
    expect((await readDeposit(harness, user, depositId)).status).toBe('pending');
    expect(await balanceMicros(harness, user.id)).toBe(0n);
    // Rejecting needs no second admin.
    expectStatus(await decide(harness, firstAdmin, 'deposits', depositId, 'reject', { reason: 'Failed on chain' }), 200);
  });

  it('refuses one admin for each refutation the chain can give, and lets one admin approve what the chain does not refute', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const refuted: Record<string, { state: string; problem: string | null }> = {
      notFound: { state: 'not_found', problem: null },
      wrongToken: { state: 'mismatch', problem: 'wrong_token' },
      wrongRecipient: { state: 'mismatch', problem: 'wrong_recipient' },
      otherNetwork: { state: 'mismatch', problem: 'other_network' },
      senderOfAnotherCustomer: { state: 'mismatch', problem: 'sender_of_another_customer' },
      ambiguous: { state: 'mismatch', problem: 'ambiguous' },
    };
    for (const facts of Object.values(refuted)) {
      const depositId = await submitted(user, `0x${crypto.randomUUID().replaceAll('-', '').padEnd(64, '0')}`, '20');
      await harness.database.handle.db.execute(
        sql`update usdt_deposits set chain_state = ${facts.state}, chain_problem = ${facts.problem} where id = ${depositId}`,
      );
      const answer = await decide(harness, firstAdmin, 'deposits', depositId, 'approve', {});
      expect(answer.statusCode, JSON.stringify(facts)).toBe(409);
      expect(answer.json<{ error: { code: string } }>().error.code).toBe('CHAIN_REFUTES');
    }
    // Below the minimum is not a refutation: an admin may credit it, at the on-chain amount.
    const belowMinimum = await submitted(user, `0x${'7'.repeat(64)}`, '20');
    await harness.database.handle.db.execute(
      sql`update usdt_deposits set chain_state = 'mismatch', chain_problem = 'below_minimum', chain_amount_usdt_micros = 3000000 where id = ${belowMinimum}`,
    );
    const approved = await decide(harness, firstAdmin, 'deposits', belowMinimum, 'approve');
    expectStatus(approved, 200);
    expect(approved.json()).toMatchObject({ deposit: { amount: '3.000000', status: 'approved' } });
    expect(await balanceMicros(harness, user.id)).toBe(3_000_000n);
  });

  it('never binds a claim to a transfer from another customer’s proven wallet: the owner is credited, the claimant is refused', async () => {
    const owner = await signUpVerifiedUser(harness.app);
    const account = await fundedAccount();
    await addEthereumWallet(harness, owner, account);
    const claimant = await signUpVerifiedUser(harness.app);
    const hash = await chain.transfer(usdt, account, operator.address, 12_000_000n);
    await chain.mine(CONFIRMATIONS);
    const claimId = await submitted(claimant, hash, '12');
    await tickUntil(worker, async () => (await balanceMicros(harness, owner.id)) === 12_000_000n);
    const claim = await readDeposit(harness, claimant, claimId);
    expect(claim).toMatchObject({
      status: 'pending',
      chain: { state: 'mismatch', problem: 'sender_of_another_customer', logIndex: null, senderProven: false },
    });
    const rows = await depositRows(hash);
    expect(rows.map((row) => [row.user_id, row.source, row.status])).toEqual([
      [claimant.id, 'customer', 'pending'],
      [owner.id, 'detected', 'approved'],
    ]);
    const refused = await decide(harness, firstAdmin, 'deposits', claimId, 'approve');
    expect(refused.statusCode).toBe(409);
    expect(await balanceMicros(harness, claimant.id)).toBe(0n);
  });

  it('among several transfers of one exchange payout takes the one of the typed amount, or marks the claim ambiguous', async () => {
    const exchange = await fundedAccount();
    const stranger = await chain.newAccount();
    const payout = await chain.transferMany(usdt, exchange, [
      { to: operator.address, amountUsdtMicros: 500_000_000n },
      { to: stranger.address, amountUsdtMicros: 7_000_000n },
      { to: operator.address, amountUsdtMicros: 50_000_000n },
    ]);
    const other = await chain.transferMany(usdt, exchange, [
      { to: operator.address, amountUsdtMicros: 30_000_000n },
      { to: operator.address, amountUsdtMicros: 40_000_000n },
    ]);
    await chain.mine(CONFIRMATIONS);
    const user = await signUpVerifiedUser(harness.app);
    const matched = await submitted(user, payout, '50');
    const unclear = await submitted(user, other, '77');
    await tickUntil(
      worker,
      async () =>
        (await readDeposit(harness, user, unclear)).chain.state === 'mismatch' && (await readDeposit(harness, user, matched)).chain.state === 'confirmed',
    );
    expect(await readDeposit(harness, user, matched)).toMatchObject({
      amount: '50.000000',
      chain: { state: 'confirmed', amountUsdt: '50.000000', senderProven: false, transfersToAddress: 2 },
    });
    expect(await readDeposit(harness, user, unclear)).toMatchObject({
      chain: { state: 'mismatch', problem: 'ambiguous', logIndex: null, amountUsdt: null, transfersToAddress: 2 },
    });
    // The matched claim is not refuted: one admin may approve it, and it credits the on-chain amount.
    expectStatus(await decide(harness, firstAdmin, 'deposits', matched, 'approve'), 200);
    expect(await balanceMicros(harness, user.id)).toBe(50_000_000n);
    expect((await decide(harness, firstAdmin, 'deposits', unclear, 'approve')).statusCode).toBe(409);
  });

  it('releases a rejected claim’s transfer: its owner can submit the hash, and a proven owner’s transfer is taken by detection', async () => {
    const thief = await signUpVerifiedUser(harness.app);
    const owner = await signUpVerifiedUser(harness.app);
    const account = await fundedAccount();
    const hash = await chain.transfer(usdt, account, operator.address, 16_000_000n);
    await chain.mine(CONFIRMATIONS);
    // The sender was nobody's proven wallet when the thief's claim was read, so the claim took the transfer.
    const stolen = await submitted(thief, hash, '16');
    await tickUntil(worker, async () => (await readDeposit(harness, thief, stolen)).chain.state === 'confirmed');
    expect((await submit(owner, hash, '16')).statusCode).toBe(409);
    expectStatus(await decide(harness, firstAdmin, 'deposits', stolen, 'reject', { reason: 'Not your transfer' }), 200);

    const ownClaim = await submitted(owner, hash, '16');
    await addEthereumWallet(harness, owner, account);
    await tickUntil(worker, async () => (await readDeposit(harness, owner, ownClaim)).status === 'approved');
    expect(await balanceMicros(harness, owner.id)).toBe(16_000_000n);
    expect(await balanceMicros(harness, thief.id)).toBe(0n);
    // Once credited, the hash is taken again.
    expect((await submit(thief, hash, '16')).statusCode).toBe(409);
  });

  it('gives a transfer whose sender was proven after a claim took it to its owner when the claim is rejected', async () => {
    const thief = await signUpVerifiedUser(harness.app);
    const owner = await signUpVerifiedUser(harness.app);
    const account = await fundedAccount();
    const hash = await chain.transfer(usdt, account, operator.address, 17_000_000n);
    await chain.mine(CONFIRMATIONS);
    const stolen = await submitted(thief, hash, '17');
    await tickUntil(worker, async () => (await readDeposit(harness, thief, stolen)).chain.state === 'confirmed');
    await addEthereumWallet(harness, owner, account);
    expectStatus(await decide(harness, firstAdmin, 'deposits', stolen, 'reject', { reason: 'Not your transfer' }), 200);
    await tickUntil(worker, async () => (await balanceMicros(harness, owner.id)) === 17_000_000n);
    const rows = await depositRows(hash);
    expect(rows.map((row) => [row.user_id, row.source, row.status, row.chain_log_index])).toEqual([
      [thief.id, 'customer', 'rejected', 0],
      [owner.id, 'detected', 'approved', 0],
    ]);
  });
});

describe('unclaimed transfers to the shared address', () => {
  async function unclaimedList() {
    const response = await call(harness.app, { url: '/api/admin/deposits/unclaimed', cookie: firstAdmin.cookie });
    expectStatus(response, 200);
    return response.json<{ items: { id: string; transactionHash: string; amount: string; fromAddress: string; logIndex: number }[] }>().items;
  }

  it('records a transfer from an unproven sender without a claim, lists it for admins, and lets an admin assign it to a customer', async () => {
    const exchange = await fundedAccount();
    const hash = await chain.transfer(usdt, exchange, operator.address, 33_000_000n);
    await chain.mine(CONFIRMATIONS);
    await tickUntil(worker, async () => (await unclaimedList()).some((item) => item.transactionHash === hash.toLowerCase()));
    const item = (await unclaimedList()).find((entry) => entry.transactionHash === hash.toLowerCase());
    expect(item).toMatchObject({ amount: '33.000000', fromAddress: exchange.address.toLowerCase() });
    expect(await depositRows(hash)).toEqual([]);
    // Customers cannot read the list.
    const customer = await signUpVerifiedUser(harness.app);
    expect((await call(harness.app, { url: '/api/admin/deposits/unclaimed', cookie: customer.cookie })).statusCode).toBe(403);

    const unknown = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/deposits/unclaimed/${item?.id}/assign`,
      cookie: firstAdmin.cookie,
      body: { email: 'nobody@example.com', reason: 'WhatsApp message with a screenshot' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: { fields: { email: 'No customer has this e-mail address.' } } });
    const assigned = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/deposits/unclaimed/${item?.id}/assign`,
      cookie: firstAdmin.cookie,
      body: { email: customer.email, reason: 'WhatsApp message with a screenshot of the exchange withdrawal' },
    });
    expectStatus(assigned, 201);
    const depositId = assigned.json<{ deposit: { id: string; status: string; source: string } }>().deposit.id;
    expect((await unclaimedList()).some((entry) => entry.id === item?.id)).toBe(false);
    const again = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/deposits/unclaimed/${item?.id}/assign`,
      cookie: firstAdmin.cookie,
      body: { email: customer.email, reason: 'again' },
    });
    expect(again.statusCode).toBe(409);

    await tickUntil(worker, async () => (await readDeposit(harness, customer, depositId)).chain.state === 'confirmed');
    expect(await readDeposit(harness, customer, depositId)).toMatchObject({ status: 'pending', chain: { senderProven: false, amountUsdt: '33.000000' } });
    expect(await balanceMicros(harness, customer.id)).toBe(0n);
    expectStatus(await decide(harness, firstAdmin, 'deposits', depositId, 'approve'), 200);
    expect(await balanceMicros(harness, customer.id)).toBe(33_000_000n);
  });

  it('takes a transfer off the list once a customer claims its hash', async () => {
    const exchange = await fundedAccount();
    const hash = await chain.transfer(usdt, exchange, operator.address, 21_000_000n);
    await chain.mine(CONFIRMATIONS);
    await tickUntil(worker, async () => (await unclaimedList()).some((item) => item.transactionHash === hash.toLowerCase()));
    const customer = await signUpVerifiedUser(harness.app);
    await submitted(customer, hash, '21');
    expect((await unclaimedList()).some((item) => item.transactionHash === hash.toLowerCase())).toBe(false);
  });
});

describe('with two admins', () => {
  let secondAdmin: SignedUpUser;
  beforeAll(async () => {
    secondAdmin = await signUpAdminWithVerifiedPin(harness);
  });

  async function refutedClaim(typed: string): Promise<{ user: SignedUpUser; depositId: string }> {
    const user = await signUpVerifiedUser(harness.app);
    const account = await fundedAccount();
    const stranger = await chain.newAccount();
    const hash = await chain.transfer(usdt, account, stranger.address, 20_000_000n);
    await chain.mine(CONFIRMATIONS);
    const depositId = await submitted(user, hash, typed);
    await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).chain.problem === 'wrong_recipient');
    return { user, depositId };
  }

  it('needs a written reason and a second admin to credit a refuted deposit, and credits the on-chain amount, not the typed one', async () => {
    const { user, depositId } = await refutedClaim('999999');
    const withoutReason = await decide(harness, firstAdmin, 'deposits', depositId, 'approve', {});
    expect(withoutReason.statusCode).toBe(400);
    expect(withoutReason.json()).toMatchObject({
      error: { fields: { reason: 'Write why this deposit should be credited although the blockchain refutes it.' } },
    });

    const first = await decide(harness, firstAdmin, 'deposits', depositId, 'approve', { reason: 'Paid our old address by mistake; forwarded by treasury' });
    expect(first.statusCode).toBe(202);
    expect(first.json()).toMatchObject({ pendingChange: { kind: 'deposit_override', status: 'open' } });
    expect(await balanceMicros(harness, user.id)).toBe(0n);
    const again = await decide(harness, firstAdmin, 'deposits', depositId, 'approve', { reason: 'again' });
    expect(again.statusCode).toBe(409);

    const second = await decide(harness, secondAdmin, 'deposits', depositId, 'approve');
    expectStatus(second, 200);
    expect(second.json()).toMatchObject({ deposit: { status: 'approved', amount: '20.000000' } });
    expect(await balanceMicros(harness, user.id)).toBe(20_000_000n);
    const changes = await call(harness.app, { url: '/api/admin/pending-changes', cookie: firstAdmin.cookie });
    expect(changes.json<{ items: { kind: string }[] }>().items.filter((change) => change.kind === 'deposit_override')).toEqual([]);
  });

  it('lets the second admin confirm the first approval in the pending changes, never the first admin; a reject discards it', async () => {
    const { user, depositId } = await refutedClaim('20');
    const first = await decide(harness, firstAdmin, 'deposits', depositId, 'approve', { reason: 'Checked with the customer' });
    expect(first.statusCode).toBe(202);
    const changeId = first.json<{ pendingChange: { id: string } }>().pendingChange.id;
    const own = await call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${changeId}/confirm`, cookie: firstAdmin.cookie, body: {} });
    expect(own.statusCode).toBe(403);
    expectStatus(await call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${changeId}/confirm`, cookie: secondAdmin.cookie, body: {} }), 200);
    expect(await readDeposit(harness, user, depositId)).toMatchObject({ status: 'approved', amount: '20.000000' });
    expect(await balanceMicros(harness, user.id)).toBe(20_000_000n);

    const { depositId: rejected } = await refutedClaim('20');
    const firstAgain = await decide(harness, firstAdmin, 'deposits', rejected, 'approve', { reason: 'Checked with the customer' });
    expect(firstAgain.statusCode).toBe(202);
    expectStatus(await decide(harness, secondAdmin, 'deposits', rejected, 'reject', { reason: 'Not ours' }), 200);
    const changeAfterReject = await harness.database.handle.db.execute<{ status: string }>(
      sql`select status from pending_changes where id = ${firstAgain.json<{ pendingChange: { id: string } }>().pendingChange.id}`,
    );
    expect(changeAfterReject.rows).toEqual([{ status: 'discarded' }]);
  });
});
