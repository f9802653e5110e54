import { sql } from 'drizzle-orm';
import type { Hex, PrivateKeyAccount } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChainWorker } from '../../src/server/features/chain/worker.ts';
import { addEthereumWallet, startEthereumTestBed, tickUntil, type EthereumTestBed } from '../fixtures/chain.ts';
import type { LocalChain } from '../fixtures/evm-chain.ts';
import { call, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { addBankAccount, balanceMicros, decide, expectLedgerConsistent, expectStatus, requestWithdrawal } from '../fixtures/wallet.ts';

/*
 * The chain follower (decision 036) against a real EVM (Hardhat's network over
 * JSON-RPC) whose eth_getLogs refuses ranges wider than 4 blocks, as providers
 * do: transfers to customers' own deposit addresses, reorganisations made with
 * evm_snapshot/evm_revert and new blocks, and the credit key that does not
 * depend on where a transaction landed. Final means 3 confirmations.
 */

const CONFIRMATIONS = 3;
let chain: LocalChain;
let harness: TestApp;
let worker: ChainWorker;
let usdt: Hex;
let operator: PrivateKeyAccount;
let addressIndex = 0;

let bed: EthereumTestBed;

beforeAll(async () => {
  bed = await startEthereumTestBed(CONFIRMATIONS, (started) => started.limitLogRange(4));
  ({ chain, harness, worker, usdt, operator } = bed);
}, 120_000);
afterEach(async () => expectLedgerConsistent(harness));
afterAll(async () => bed.close());

/** A customer with their own deposit address (as the address feature derives one; here any address the test makes). */
async function customerWithAddress(): Promise<{ user: SignedUpUser; address: Hex }> {
  const user = await signUpVerifiedUser(harness.app);
  const address = (await chain.newAccount()).address.toLowerCase() as Hex;
  addressIndex += 1;
  await harness.database.handle.db.execute(
    sql`insert into deposit_addresses (network, address_index, user_id, extended_public_key, address) values ('ERC20', ${addressIndex}, ${user.id}, 'xpub-of-the-test', ${address})`,
  );
  return { user, address };
}

/** An account no customer proved, holding test USDT. */
async function stranger(amountUsdtMicros = 1_000_000_000n): Promise<PrivateKeyAccount> {
  const account = await chain.newAccount();
  await chain.mint(usdt, account.address, amountUsdtMicros);
  return account;
}

async function depositsOf(hash: Hex) {
  return (
    await harness.database.handle.db.execute<{
      id: string;
      user_id: string;
      source: string;
      status: string;
      chain_log_index: number | null;
      chain_block_number: bigint | null;
      amount_usdt_micros: bigint;
      chain_problem: string | null;
    }>(
      sql`select id, user_id, source, status, chain_log_index, chain_block_number, amount_usdt_micros, chain_problem from usdt_deposits where transaction_hash = ${hash.toLowerCase()}`,
    )
  ).rows;
}

async function creditsOf(depositIds: string[]): Promise<bigint> {
  if (depositIds.length === 0) return 0n;
  const result = await harness.database.handle.db.execute<{ count: bigint }>(
    sql`select count(*) as count from ledger_transfers where reason = 'deposit_credit' and reference_id in (${sql.join(
      depositIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
  return result.rows[0]?.count ?? 0n;
}

async function openIncidents(depositId: string): Promise<number> {
  const result = await harness.database.handle.db.execute<{ count: bigint }>(
    sql`select count(*) as count from chain_incidents where deposit_id = ${depositId} and resolved_at is null`,
  );
  return Number(result.rows[0]?.count ?? 0n);
}

/** Whether the follower has read every final block. */
async function followerCaughtUp(): Promise<boolean> {
  const result = await harness.database.handle.db.execute<{ newest: bigint | null }>(
    sql`select max(block_number) as newest from chain_blocks where network = 'ERC20'`,
  );
  const newest = result.rows[0]?.newest;
  return newest !== null && newest !== undefined && BigInt(newest) >= (await chain.blockNumber()) - BigInt(CONFIRMATIONS) + 1n;
}

describe('the chain follower', () => {
  it('credits a final transfer to a customer’s own address once, for the on-chain amount, whoever sent it and with no hash', async () => {
    const { user, address } = await customerWithAddress();
    const sender = await stranger();
    const hash = await chain.transfer(usdt, sender, address, 31_500_000n);
    await chain.mine(CONFIRMATIONS - 2);
    await worker.tick();
    // Not final yet: nothing recorded.
    expect(await depositsOf(hash)).toEqual([]);
    await chain.mine(1);
    await tickUntil(worker, async () => (await balanceMicros(harness, user.id)) === 31_500_000n);
    const [deposit] = await depositsOf(hash);
    expect(deposit).toMatchObject({ user_id: user.id, source: 'detected', status: 'approved', amount_usdt_micros: 31_500_000n, chain_log_index: 0 });

    // Reading the blocks again records and credits nothing more.
    await harness.database.handle.db.execute(
      sql`delete from chain_blocks where network = 'ERC20' and block_number > (select max(block_number) - 20 from chain_blocks where network = 'ERC20')`,
    );
    await tickUntil(worker, followerCaughtUp);
    expect(await depositsOf(hash)).toHaveLength(1);
    expect(await creditsOf([deposit?.id ?? ''])).toBe(1n);
    expect(await balanceMicros(harness, user.id)).toBe(31_500_000n);
  });

  it('records a transfer below the minimum to a customer’s address without crediting it, shows it so, and lets an admin credit it', async () => {
    const admin = await signUpAdminWithVerifiedPin(harness);
    const { user, address } = await customerWithAddress();
    const hash = await chain.transfer(usdt, await stranger(), address, 2_000_000n);
    await chain.mine(CONFIRMATIONS);
    await tickUntil(worker, async () => (await depositsOf(hash)).length === 1);
    const [deposit] = await depositsOf(hash);
    expect(deposit).toMatchObject({ status: 'pending', source: 'detected', chain_problem: 'below_minimum', amount_usdt_micros: 2_000_000n });
    expect(await balanceMicros(harness, user.id)).toBe(0n);
    const history = await call(harness.app, { url: '/api/transactions?type=deposit', cookie: user.cookie });
    expectStatus(history, 200);
    expect(history.json<{ items: { transactionHash: string; status: string }[] }>().items).toEqual(
      expect.arrayContaining([expect.objectContaining({ transactionHash: hash.toLowerCase(), status: 'pending' })]),
    );
    expectStatus(await decide(harness, admin, 'deposits', deposit?.id ?? '', 'approve'), 200);
    expect(await balanceMicros(harness, user.id)).toBe(2_000_000n);
  });

  it('credits nothing new when a credited transaction is re-included after a reorganisation at another height and log index', async () => {
    const { user, address } = await customerWithAddress();
    const sender = await stranger();
    const filler = await stranger();
    const signed = await chain.signTransfer(usdt, sender, address, 13_000_000n);
    const snapshot = await chain.request('evm_snapshot');
    const hash = await chain.sendRaw(signed);
    const before = (await chain.request('eth_getTransactionReceipt', [hash])) as { blockNumber: string; logs: { logIndex: string }[] };
    await chain.mine(CONFIRMATIONS);
    await tickUntil(worker, async () => (await balanceMicros(harness, user.id)) === 13_000_000n);

    // A longer branch without it, and then the same signed transaction again, behind another transfer in its block.
    await chain.request('evm_revert', [snapshot]);
    await chain.mine(CONFIRMATIONS + 4);
    await chain.setAutomine(false);
    try {
      await chain.sendTransfer(usdt, filler, operator.address, 1_000_000n);
      await chain.sendRaw(signed);
      await chain.mine(1);
    } finally {
      await chain.setAutomine(true);
    }
    await chain.mine(CONFIRMATIONS);
    const after = (await chain.request('eth_getTransactionReceipt', [hash])) as { blockNumber: string; logs: { logIndex: string }[] };
    expect(after.blockNumber).not.toBe(before.blockNumber);
    expect(after.logs[0]?.logIndex).not.toBe(before.logs[0]?.logIndex);

    await tickUntil(worker, async () => (await followerCaughtUp()) && (await depositsOf(hash))[0]?.chain_block_number === BigInt(after.blockNumber), 12);
    const deposits = await depositsOf(hash);
    expect(deposits).toHaveLength(1);
    expect(await creditsOf(deposits.map((deposit) => deposit.id))).toBe(1n);
    expect(await balanceMicros(harness, user.id)).toBe(13_000_000n);
    expect(await openIncidents(deposits[0]?.id ?? '')).toBe(0);
  });

  it('opens an incident when a reorganisation deeper than the confirmations removes a credited transfer, holds withdrawals to its amount, and never credits it again', async () => {
    const admin = await signUpAdminWithVerifiedPin(harness);
    const { user, address } = await customerWithAddress();
    const sender = await stranger();
    const bankAccountId = await addBankAccount(harness, user);
    const snapshot = await chain.request('evm_snapshot');
    const hash = await chain.transfer(usdt, sender, address, 27_000_000n);
    await chain.mine(CONFIRMATIONS);
    await tickUntil(worker, async () => (await balanceMicros(harness, user.id)) === 27_000_000n);
    const [deposit] = await depositsOf(hash);
    const depositId = deposit?.id ?? '';

    await chain.request('evm_revert', [snapshot]);
    await chain.mine(CONFIRMATIONS + 6);
    await tickUntil(worker, async () => (await openIncidents(depositId)) === 1, 12);
    await tickUntil(worker, followerCaughtUp);

    // The balance stays, but a withdrawal that would spend the held amount is refused.
    expect(await balanceMicros(harness, user.id)).toBe(27_000_000n);
    expect(await creditsOf([depositId])).toBe(1n);
    const refused = await requestWithdrawal(harness, user, { amount: '10', bankAccountId });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: { code: string; message: string } }>().error).toMatchObject({
      code: 'DEPOSIT_ON_HOLD',
      message: '27.000000 USDT of your balance is on hold while we check a deposit that is no longer on the blockchain. You can withdraw the rest.',
    });
    expect(await balanceMicros(harness, user.id)).toBe(27_000_000n);

    const incidents = await call(harness.app, { url: '/api/admin/chain-incidents', cookie: admin.cookie });
    expectStatus(incidents, 200);
    expect(incidents.json<{ items: unknown[] }>().items).toEqual(
      expect.arrayContaining([expect.objectContaining({ depositId, userId: user.id, amount: '27.000000', resolvedAt: null, kind: 'transfer_vanished' })]),
    );
    expect((await call(harness.app, { url: '/api/admin/chain-incidents', cookie: user.cookie })).statusCode).toBe(403);
  });

  it('finds a new transfer in the replacement branch at a height it had already read', async () => {
    const { user, address } = await customerWithAddress();
    const sender = await stranger();
    const snapshot = await chain.request('evm_snapshot');
    await chain.mine(CONFIRMATIONS + 3);
    await tickUntil(worker, followerCaughtUp);

    await chain.request('evm_revert', [snapshot]);
    const hash = await chain.transfer(usdt, sender, address, 19_000_000n);
    await chain.mine(CONFIRMATIONS + 4);
    await tickUntil(worker, async () => (await balanceMicros(harness, user.id)) === 19_000_000n, 12);
    expect(await depositsOf(hash)).toHaveLength(1);
  });

  it('catches up after a long pause through a provider that refuses wide ranges, halving them', async () => {
    const { user, address } = await customerWithAddress();
    const sender = await stranger();
    const refusedBefore = chain.refusedLogRanges();
    await chain.mine(150);
    const hash = await chain.transfer(usdt, sender, address, 23_000_000n);
    await chain.mine(150);
    await tickUntil(worker, async () => (await balanceMicros(harness, user.id)) === 23_000_000n, 20);
    expect(chain.refusedLogRanges()).toBeGreaterThan(refusedBefore);
    expect(await depositsOf(hash)).toHaveLength(1);
  });

  it('credits a transfer from a proved wallet to the shared address once, through the same range reads', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const account = await stranger();
    await addEthereumWallet(harness, user, account);
    const hash = await chain.transfer(usdt, account, operator.address, 16_000_000n);
    await chain.mine(CONFIRMATIONS);
    await tickUntil(worker, async () => (await balanceMicros(harness, user.id)) === 16_000_000n);
    expect(await depositsOf(hash)).toEqual([expect.objectContaining({ source: 'detected', status: 'approved', chain_log_index: 0 })]);
  });
  it('settles a group of transfers as an approval does: rewards to both referrers, a notice in each customer’s language, an audit row each', async () => {
    const grandReferrer = await signUpVerifiedUser(harness.app);
    const referrer = await signUpVerifiedUser(harness.app, { referralCode: grandReferrer.referralCode });
    const first = await customerWithAddress();
    await harness.database.handle.db.execute(sql`update profiles set referred_by_user_id = ${referrer.id}, language = 'hi' where user_id = ${first.user.id}`);
    const second = await customerWithAddress();
    // One transaction pays the first customer twice and the second once, plus once below the minimum.
    const hash = await chain.transferMany(usdt, await stranger(), [
      { to: first.address, amountUsdtMicros: 50_000_000n },
      { to: second.address, amountUsdtMicros: 1_000_000n },
      { to: first.address, amountUsdtMicros: 20_000_000n },
      { to: second.address, amountUsdtMicros: 30_000_000n },
    ]);
    await chain.mine(CONFIRMATIONS);
    await tickUntil(worker, async () => (await balanceMicros(harness, second.user.id)) === 30_000_000n);

    const deposits = await depositsOf(hash);
    expect(deposits.map((deposit) => [deposit.user_id, deposit.chain_log_index, deposit.status, deposit.amount_usdt_micros]).sort()).toEqual(
      [
        [first.user.id, 0, 'approved', 50_000_000n],
        [second.user.id, 1, 'pending', 1_000_000n],
        [first.user.id, 2, 'approved', 20_000_000n],
        [second.user.id, 3, 'approved', 30_000_000n],
      ].sort(),
    );
    expect(await balanceMicros(harness, first.user.id)).toBe(70_000_000n);
    // 0.1% and 0.02% of each of the first customer's deposits.
    expect(await balanceMicros(harness, referrer.id)).toBe(70_000n);
    expect(await balanceMicros(harness, grandReferrer.id)).toBe(14_000n);
    const query = async <Row extends Record<string, unknown>>(statement: ReturnType<typeof sql>) =>
      (await harness.database.handle.db.execute<Row>(statement)).rows;
    const approvedIds = deposits.filter((deposit) => deposit.status === 'approved').map((deposit) => deposit.id);
    expect(await creditsOf(approvedIds)).toBe(3n);
    const rewards = await query<{ referrer_user_id: string; level: number; reward: string }>(
      sql`select referrer_user_id, level, reward_usdt_micros::text as reward from referral_rewards where referred_user_id = ${first.user.id} order by reward_usdt_micros desc`,
    );
    expect(rewards).toEqual([
      { referrer_user_id: referrer.id, level: 1, reward: '50000' },
      { referrer_user_id: referrer.id, level: 1, reward: '20000' },
      { referrer_user_id: grandReferrer.id, level: 2, reward: '10000' },
      { referrer_user_id: grandReferrer.id, level: 2, reward: '4000' },
    ]);

    const audits = await query<{ target_id: string; actor_user_id: string | null; before: unknown; after: unknown }>(
      sql`select target_id, actor_user_id, before, after from audit_log where action = 'deposit.approve' and target_user_id in (${first.user.id}, ${second.user.id})`,
    );
    const fifty = deposits.find((deposit) => deposit.amount_usdt_micros === 50_000_000n);
    expect(audits).toHaveLength(3);
    expect(audits.find((audit) => audit.target_id === fifty?.id)).toEqual({
      target_id: fifty?.id,
      actor_user_id: null,
      before: { status: 'pending' },
      after: {
        status: 'approved',
        amountUsdtMicros: '50000000',
        referralRewards: [
          { userId: referrer.id, level: 1, rewardUsdtMicros: '50000' },
          { userId: grandReferrer.id, level: 2, rewardUsdtMicros: '10000' },
        ],
      },
    });

    const notices = await query<{ user_id: string; title: string; link: string; email_text: string }>(
      sql`select user_id, title, link, email_text from notifications where kind = 'deposit_credited' and user_id in (${first.user.id}, ${second.user.id}) order by user_id, link`,
    );
    expect(notices).toHaveLength(3);
    for (const notice of notices) {
      const deposit = deposits.find((candidate) => notice.link === `/wallet/transactions/deposit/${candidate.id}`);
      expect(deposit?.user_id).toBe(notice.user_id);
      const inHindi = notice.user_id === first.user.id;
      expect(notice.title).toBe(inHindi ? 'जमा राशि जमा हो गई' : 'Deposit credited');
      expect(notice.email_text).toContain(inHindi ? `संदर्भ आईडी: ${deposit?.id}` : `Reference ID: ${deposit?.id}`);
    }
  });
});
