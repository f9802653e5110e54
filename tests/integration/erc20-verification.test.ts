import { sql } from 'drizzle-orm';
import type { Hex, PrivateKeyAccount } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEthereumClient } from '../../src/server/features/chain/ethereum-client.ts';
import { createTronClient } from '../../src/server/features/chain/tron-client.ts';
import { tronAddressFromAccountId } from '../../src/server/features/settings/addresses.ts';
import type { ChainWorker } from '../../src/server/features/chain/worker.ts';
import { addEthereumWallet, readDeposit, startEthereumTestBed, startTestWorker, tickUntil, type EthereumTestBed } from '../fixtures/chain.ts';
import type { LocalChain } from '../fixtures/evm-chain.ts';
import { startTronStandIn } from '../fixtures/tron-stand-in.ts';
import { MAINNET_USDT_TRC20 } from '../fixtures/tron-shapes.ts';
import { call, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { balanceMicros, expectLedgerConsistent, expectStatus } from '../fixtures/wallet.ts';

/*
 * ERC20 deposits verified against a real EVM (Hardhat's network over JSON-RPC on
 * 127.0.0.1) with a 6-decimal token deployed here. Final means 3 confirmations.
 */

const CONFIRMATIONS = 3;
let chain: LocalChain;
let harness: TestApp;
let worker: ChainWorker;
let usdt: Hex;
let otherToken: Hex;
let operator: PrivateKeyAccount;

let bed: EthereumTestBed;

beforeAll(async () => {
  bed = await startEthereumTestBed(CONFIRMATIONS);
  ({ chain, harness, worker, usdt, operator } = bed);
  otherToken = await chain.deployToken();
}, 120_000);
afterEach(async () => expectLedgerConsistent(harness));
afterAll(async () => bed.close());

/** A customer with a funded wallet account on the chain. */
async function customerWithFunds(amountUsdtMicros = 100_000_000n): Promise<{ user: SignedUpUser; account: PrivateKeyAccount }> {
  const user = await signUpVerifiedUser(harness.app);
  const account = await chain.newAccount();
  await chain.mint(usdt, account.address, amountUsdtMicros);
  return { user, account };
}

async function submit(user: SignedUpUser, transactionHash: string, amount: string) {
  return call(harness.app, { method: 'POST', url: '/api/deposits', cookie: user.cookie, body: { network: 'ERC20', amount, transactionHash } });
}

async function submitted(user: SignedUpUser, transactionHash: string, amount: string): Promise<string> {
  const response = await submit(user, transactionHash, amount);
  expectStatus(response, 201);
  const deposit = response.json<{ deposit: { id: string; chain: { state: string } } }>().deposit;
  expect(deposit.chain.state).toBe('unchecked');
  return deposit.id;
}

describe('ERC20 deposits verified on chain', () => {
  it('credits a transfer from the customer’s verified wallet after 3 confirmations and not before, at the on-chain amount', async () => {
    const { user, account } = await customerWithFunds();
    await addEthereumWallet(harness, user, account);
    const hash = await chain.transfer(usdt, account, operator.address, 30_000_000n);
    const depositId = await submitted(user, hash, '25');

    await worker.tick();
    let deposit = await readDeposit(harness, user, depositId);
    expect(deposit).toMatchObject({ status: 'pending', chain: { state: 'confirming', confirmations: 1, requiredConfirmations: CONFIRMATIONS } });
    expect(deposit.chain).toMatchObject({ amountUsdt: '30.000000', fromAddress: account.address.toLowerCase(), toAddress: operator.address.toLowerCase() });
    expect(await balanceMicros(harness, user.id)).toBe(0n);

    await chain.mine(1);
    await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).chain.confirmations === 2);
    expect((await readDeposit(harness, user, depositId)).status).toBe('pending');
    expect(await balanceMicros(harness, user.id)).toBe(0n);

    await chain.mine(1);
    await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).status === 'approved');
    deposit = await readDeposit(harness, user, depositId);
    expect(deposit).toMatchObject({ amount: '30.000000', typedAmount: '25.000000', chain: { state: 'confirmed', logIndex: 0 } });
    expect(await balanceMicros(harness, user.id)).toBe(30_000_000n);

    const decision = await harness.database.handle.db.execute<{ decided_by_user_id: string | null; decided_at: Date | null }>(
      sql`select decided_by_user_id, decided_at from usdt_deposits where id = ${depositId}`,
    );
    expect(decision.rows[0]?.decided_by_user_id).toBeNull();
    expect(decision.rows[0]?.decided_at).not.toBeNull();
    const audit = await harness.database.handle.db.execute<{ actor_user_id: string | null }>(
      sql`select actor_user_id from audit_log where action = 'deposit.approve' and target_id = ${depositId}`,
    );
    expect(audit.rows).toEqual([{ actor_user_id: null }]);
  });

  it('leaves a transfer from an unverified wallet pending for an admin, with the chain facts attached', async () => {
    const { user, account } = await customerWithFunds();
    const hash = await chain.transfer(usdt, account, operator.address, 15_000_000n);
    await chain.mine(CONFIRMATIONS);
    const depositId = await submitted(user, hash, '15');
    await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).chain.state === 'confirmed');
    const deposit = await readDeposit(harness, user, depositId);
    expect(deposit).toMatchObject({
      status: 'pending',
      typedAmount: null,
      chain: { problem: null, amountUsdt: '15.000000', fromAddress: account.address.toLowerCase() },
    });
    expect(await balanceMicros(harness, user.id)).toBe(0n);
  });

  it('never credits customer B for a transfer from customer A’s verified wallet, shows the conflict and credits A (decision 037)', async () => {
    const { user: owner, account } = await customerWithFunds();
    await addEthereumWallet(harness, owner, account);
    const other = await signUpVerifiedUser(harness.app);
    const hash = await chain.transfer(usdt, account, operator.address, 12_000_000n);
    await chain.mine(CONFIRMATIONS);
    const depositId = await submitted(other, hash, '12');
    await tickUntil(worker, async () => (await readDeposit(harness, other, depositId)).chain.state === 'mismatch');
    expect(await readDeposit(harness, other, depositId)).toMatchObject({
      status: 'pending',
      chain: { problem: 'sender_of_another_customer', amountUsdt: '12.000000', logIndex: null, senderProven: false },
    });
    expect(await balanceMicros(harness, other.id)).toBe(0n);
    await tickUntil(worker, async () => (await balanceMicros(harness, owner.id)) === 12_000_000n);
  });

  it('marks a transfer to another address as a mismatch (wrong recipient)', async () => {
    const { user, account } = await customerWithFunds();
    await addEthereumWallet(harness, user, account);
    const stranger = await chain.newAccount();
    const hash = await chain.transfer(usdt, account, stranger.address, 20_000_000n);
    await chain.mine(CONFIRMATIONS);
    const depositId = await submitted(user, hash, '20');
    await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).chain.state === 'mismatch');
    expect(await readDeposit(harness, user, depositId)).toMatchObject({
      status: 'pending',
      chain: { problem: 'wrong_recipient', toAddress: stranger.address.toLowerCase() },
    });
    expect(await balanceMicros(harness, user.id)).toBe(0n);
  });

  it('marks a transfer of another token as a mismatch (wrong token)', async () => {
    const { user, account } = await customerWithFunds();
    await addEthereumWallet(harness, user, account);
    await chain.mint(otherToken, account.address, 50_000_000n);
    const hash = await chain.transfer(otherToken, account, operator.address, 20_000_000n);
    await chain.mine(CONFIRMATIONS);
    const depositId = await submitted(user, hash, '20');
    await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).chain.state === 'mismatch');
    expect(await readDeposit(harness, user, depositId)).toMatchObject({ status: 'pending', chain: { problem: 'wrong_token' } });
    expect(await balanceMicros(harness, user.id)).toBe(0n);
  });

  it('marks a reverted transaction as failed, whatever its Transfer log said before the revert', async () => {
    const { user, account } = await customerWithFunds();
    await addEthereumWallet(harness, user, account);
    const hash = await chain.revertedTransfer(usdt, account, operator.address, 20_000_000n);
    await chain.mine(CONFIRMATIONS);
    const depositId = await submitted(user, hash, '20');
    await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).chain.state === 'failed');
    expect((await readDeposit(harness, user, depositId)).status).toBe('pending');
    expect(await balanceMicros(harness, user.id)).toBe(0n);
  });

  it('reports an unknown hash as not found and keeps looking', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const unknown = `0x${'ab'.repeat(32)}`;
    const depositId = await submitted(user, unknown, '20');
    await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).chain.state === 'not_found');
    const job = await harness.database.handle.db.execute<{ finished_at: Date | null }>(sql`select finished_at from chain_jobs where deposit_id = ${depositId}`);
    expect(job.rows[0]?.finished_at).toBeNull();
    expect(await balanceMicros(harness, user.id)).toBe(0n);
  });

  it('accepts one transaction hash once, whoever submits it, and credits it once', async () => {
    const { user, account } = await customerWithFunds();
    await addEthereumWallet(harness, user, account);
    const hash = await chain.transfer(usdt, account, operator.address, 11_000_000n);
    await chain.mine(CONFIRMATIONS);
    const depositId = await submitted(user, hash, '11');
    const thief = await signUpVerifiedUser(harness.app);
    const second = await submit(thief, hash.toUpperCase().replace('0X', '0x'), '11');
    expect(second.statusCode).toBe(409);
    await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).status === 'approved');
    expect(await balanceMicros(harness, user.id)).toBe(11_000_000n);
    expect(await balanceMicros(harness, thief.id)).toBe(0n);
    // The credit key refuses a second deposit row for the same (network, transaction, log index).
    await expect(
      harness.database.handle.db.execute(
        sql`insert into usdt_deposits (user_id, network, amount_usdt_micros, transaction_hash, deposit_address, chain_log_index) values (${thief.id}, 'ERC20', 1, ${hash}, ${operator.address}, 0)`,
      ),
    ).rejects.toThrow();
  });

  it('detects a transfer from a verified wallet that was never submitted, and credits it as a deposit', async () => {
    const { user, account } = await customerWithFunds();
    await addEthereumWallet(harness, user, account);
    const hash = await chain.transfer(usdt, account, operator.address, 40_000_000n);
    await chain.mine(CONFIRMATIONS);
    await tickUntil(worker, async () => {
      const history = await call(harness.app, { url: '/api/transactions?type=deposit', cookie: user.cookie });
      const items = history.json<{ items: { transactionHash: string; status: string }[] }>().items;
      return items.some((item) => item.transactionHash === hash.toLowerCase() && item.status === 'approved');
    });
    expect(await balanceMicros(harness, user.id)).toBe(40_000_000n);
    const row = await harness.database.handle.db.execute<{ source: string }>(
      sql`select source from usdt_deposits where transaction_hash = ${hash.toLowerCase()}`,
    );
    expect(row.rows).toEqual([{ source: 'detected' }]);
  });

  it('makes each USDT transfer to the operator in one transaction a deposit of its own: the submission takes the first, detection the others', async () => {
    const { user, account } = await customerWithFunds();
    await addEthereumWallet(harness, user, account);
    const stranger = await chain.newAccount();
    const hash = await chain.transferMany(usdt, account, [
      { to: operator.address, amountUsdtMicros: 20_000_000n },
      { to: stranger.address, amountUsdtMicros: 30_000_000n },
      { to: operator.address, amountUsdtMicros: 15_000_000n },
    ]);
    const depositId = await submitted(user, hash, '20');
    await chain.mine(CONFIRMATIONS);
    const rowsOf = async () =>
      (
        await harness.database.handle.db.execute<{ id: string; source: string; status: string; chain_log_index: number | null; amount_usdt_micros: bigint }>(
          sql`select id, source, status, chain_log_index, amount_usdt_micros from usdt_deposits where transaction_hash = ${hash.toLowerCase()} order by chain_log_index`,
        )
      ).rows;
    await tickUntil(worker, async () => {
      const rows = await rowsOf();
      return rows.length === 2 && rows.every((row) => row.status === 'approved');
    });
    const rows = await rowsOf();
    const [submittedRow, detectedRow] = rows;
    expect(submittedRow).toMatchObject({ id: depositId, source: 'customer', amount_usdt_micros: 20_000_000n });
    expect(detectedRow).toMatchObject({ source: 'detected', amount_usdt_micros: 15_000_000n });
    // The position counts the transaction's USDT transfers; the stranger's sits between the two.
    expect((detectedRow?.chain_log_index ?? 0) - (submittedRow?.chain_log_index ?? 0)).toBe(2);
    expect(await balanceMicros(harness, user.id)).toBe(35_000_000n);

    // Reading the blocks again (a cursor set back) and checking the deposits again record and credit nothing more.
    await harness.database.handle.db.execute(
      sql`delete from chain_blocks where network = 'ERC20' and block_number > (select max(block_number) - 20 from chain_blocks where network = 'ERC20')`,
    );
    await harness.database.handle.db.execute(sql`update chain_jobs set run_after = now() where kind = 'scan_network'`);
    await harness.database.handle.db.execute(
      sql`update chain_jobs set finished_at = null, run_after = now() where deposit_id in (${sql.join(
        rows.map((row) => sql`${row.id}::uuid`),
        sql`, `,
      )})`,
    );
    await worker.tick();
    await worker.tick();
    expect((await rowsOf()).length).toBe(2);
    expect(await balanceMicros(harness, user.id)).toBe(35_000_000n);
    const credits = await harness.database.handle.db.execute<{ count: bigint }>(
      sql`select count(*) as count from ledger_transfers where reason = 'deposit_credit' and reference_id in (${sql.join(
        rows.map((row) => sql`${row.id}::uuid`),
        sql`, `,
      )})`,
    );
    expect(credits.rows[0]?.count).toBe(2n);

    // The hash cannot be submitted again, by anyone.
    const other = await signUpVerifiedUser(harness.app);
    expect((await submit(other, hash, '15')).statusCode).toBe(409);
    expect((await submit(user, hash, '15')).statusCode).toBe(409);
  });

  it('detects each of several transfers from a verified wallet in one transaction that was never submitted', async () => {
    const { user, account } = await customerWithFunds();
    await addEthereumWallet(harness, user, account);
    const hash = await chain.transferMany(usdt, account, [
      { to: operator.address, amountUsdtMicros: 11_000_000n },
      { to: operator.address, amountUsdtMicros: 12_000_000n },
      // Below the minimum deposit: not a deposit of its own.
      { to: operator.address, amountUsdtMicros: 1_000_000n },
    ]);
    await chain.mine(CONFIRMATIONS);
    await tickUntil(worker, async () => (await balanceMicros(harness, user.id)) === 23_000_000n);
    const rows = await harness.database.handle.db.execute<{ source: string; status: string }>(
      sql`select source, status from usdt_deposits where transaction_hash = ${hash.toLowerCase()}`,
    );
    expect(rows.rows).toEqual([
      { source: 'detected', status: 'approved' },
      { source: 'detected', status: 'approved' },
    ]);
    expect((await submit(user, hash, '11')).statusCode).toBe(409);
  });

  it('credits nothing that a reorganisation removed before it was final', async () => {
    const { user, account } = await customerWithFunds();
    await addEthereumWallet(harness, user, account);
    const snapshot = await chain.request('evm_snapshot');
    const hash = await chain.transfer(usdt, account, operator.address, 25_000_000n);
    const depositId = await submitted(user, hash, '25');
    await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).chain.state === 'confirming');
    // The block with the transfer is replaced by a longer chain without it.
    await chain.request('evm_revert', [snapshot]);
    await chain.mine(CONFIRMATIONS + 1);
    await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).chain.state === 'not_found');
    expect((await readDeposit(harness, user, depositId)).status).toBe('pending');
    expect(await balanceMicros(harness, user.id)).toBe(0n);
  });

  it('keeps taking deposits while the provider is down, shows the delay, and credits once it is back', async () => {
    const { user, account } = await customerWithFunds();
    await addEthereumWallet(harness, user, account);
    const hash = await chain.transfer(usdt, account, operator.address, 18_000_000n);
    await chain.mine(CONFIRMATIONS);
    chain.pause();
    try {
      const depositId = await submitted(user, hash, '18');
      await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).chain.delayed);
      expect(await readDeposit(harness, user, depositId)).toMatchObject({ status: 'pending', chain: { state: 'unchecked', delayed: true } });
      chain.resume();
      await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).status === 'approved');
      expect((await readDeposit(harness, user, depositId)).chain.delayed).toBe(false);
      expect(await balanceMicros(harness, user.id)).toBe(18_000_000n);
    } finally {
      chain.resume();
    }
  });

  it('lets two workers (two processes) run at once without crediting anything twice', async () => {
    const { user, account } = await customerWithFunds();
    await addEthereumWallet(harness, user, account);
    const second = startTestWorker(harness, [createEthereumClient({ rpcUrl: chain.rpcUrl, usdtContract: usdt, confirmations: CONFIRMATIONS })]);
    const hashes: Hex[] = [];
    for (let index = 0; index < 3; index += 1) hashes.push(await chain.transfer(usdt, account, operator.address, 10_000_000n));
    await chain.mine(CONFIRMATIONS);
    const ids: string[] = [];
    for (const hash of hashes) ids.push(await submitted(user, hash, '10'));
    await tickUntil(worker, async () => {
      await second.tick();
      const states = await Promise.all(ids.map(async (id) => (await readDeposit(harness, user, id)).status));
      return states.every((status) => status === 'approved');
    });
    await Promise.all([worker.tick(), second.tick()]);
    expect(await balanceMicros(harness, user.id)).toBe(30_000_000n);
    const credits = await harness.database.handle.db.execute<{ count: bigint }>(
      sql`select count(*) as count from ledger_transfers where reason = 'deposit_credit' and reference_id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
    expect(credits.rows[0]?.count).toBe(3n);
  });

  it('pays referral rewards on an automatic credit and shows the chain facts in the admin queue; polling is not rate-limited', async () => {
    const referrer = await signUpVerifiedUser(harness.app);
    const user = await signUpVerifiedUser(harness.app, { referralCode: referrer.referralCode });
    const account = await chain.newAccount();
    await chain.mint(usdt, account.address, 100_000_000n);
    await addEthereumWallet(harness, user, account);
    const hash = await chain.transfer(usdt, account, operator.address, 50_000_000n);
    await chain.mine(CONFIRMATIONS);
    const depositId = await submitted(user, hash, '50');
    for (let poll = 0; poll < 20; poll += 1) expect((await call(harness.app, { url: `/api/deposits/${depositId}`, cookie: user.cookie })).statusCode).toBe(200);
    await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).status === 'approved');
    expect(await balanceMicros(harness, referrer.id)).toBe(50_000n);

    const admin = await signUpAdminWithVerifiedPin(harness);
    const queue = await call(harness.app, { url: '/api/admin/deposits?status=approved&limit=100', cookie: admin.cookie });
    const item = queue
      .json<{ items: { id: string; chain: { state: string; fromAddress: string; amountUsdt: string } }[] }>()
      .items.find((entry) => entry.id === depositId);
    expect(item?.chain).toMatchObject({ state: 'confirmed', fromAddress: account.address.toLowerCase(), amountUsdt: '50.000000' });
  });

  it('recognises a TRC20 transaction submitted as ERC20 and tells the customer to pick the other network', async () => {
    const tron = await startTronStandIn();
    const both = startTestWorker(harness, [
      createEthereumClient({ rpcUrl: chain.rpcUrl, usdtContract: usdt, confirmations: CONFIRMATIONS }),
      createTronClient({ fullNodeUrl: tron.fullNodeUrl, solidityNodeUrl: tron.solidityNodeUrl, apiKey: undefined, usdtContract: MAINNET_USDT_TRC20 }),
    ]);
    try {
      const user = await signUpVerifiedUser(harness.app);
      const tronHash = 'cd'.repeat(32);
      tron.addTransfer({
        id: tronHash,
        contract: MAINNET_USDT_TRC20,
        from: tronAddressFromAccountId(Buffer.alloc(20, 3)),
        to: tronAddressFromAccountId(Buffer.alloc(20, 4)),
        amount: 20_000_000n,
      });
      const depositId = await submitted(user, `0x${tronHash}`, '20');
      await tickUntil(both, async () => (await readDeposit(harness, user, depositId)).chain.problem === 'other_network');
      expect(await readDeposit(harness, user, depositId)).toMatchObject({ status: 'pending', chain: { state: 'mismatch' } });
    } finally {
      await both.stop();
      await tron.close();
    }
  });
});
