import { sql } from 'drizzle-orm';
import type { Hex, PrivateKeyAccount } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ReconciliationResponse, SweepPlan } from '#shared/contracts/reconciliation';
import { startEthereumTestBed, tickUntil, type EthereumTestBed } from '../fixtures/chain.ts';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { call, createTestApp, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import { balanceMicros, expectLedgerConsistent, expectStatus } from '../fixtures/wallet.ts';

/*
 * The reconciliation and the sweep plan (decision 045) against a real EVM: on-chain balances read
 * with eth_call balanceOf at the follower's cursor, beside credited minus swept; a sweep out of a
 * customer's address read by the follower, recorded and matched to the plan.
 */

const CONFIRMATIONS = 3;
let bed: EthereumTestBed;
let app: TestApp;
let admin: SignedUpUser;
let addressIndex = 0;

beforeAll(async () => {
  bed = await startEthereumTestBed(CONFIRMATIONS);
  app = await createTestApp({
    database: bed.harness.database,
    chain: { ethereum: { rpcUrl: bed.chain.rpcUrl, usdtContract: bed.usdt, confirmations: CONFIRMATIONS } },
  });
  admin = await signUpAdminWithVerifiedPin(bed.harness);
}, 120_000);
afterEach(async () => expectLedgerConsistent(bed.harness));
afterAll(async () => {
  await app.close();
  await bed.close();
});

async function customerWithAddress(account: PrivateKeyAccount): Promise<{ user: SignedUpUser; address: Hex }> {
  const user = await signUpVerifiedUser(bed.harness.app);
  const address = account.address.toLowerCase() as Hex;
  addressIndex += 1;
  await bed.harness.database.handle.db.execute(
    sql`insert into deposit_addresses (network, address_index, user_id, extended_public_key, address) values ('ERC20', ${addressIndex}, ${user.id}, 'xpub-of-the-reconciliation-test', ${address})`,
  );
  return { user, address };
}

async function followerCaughtUp(): Promise<boolean> {
  const result = await bed.harness.database.handle.db.execute<{ newest: bigint | null }>(
    sql`select max(block_number) as newest from chain_blocks where network = 'ERC20'`,
  );
  const newest = result.rows[0]?.newest;
  return newest !== null && newest !== undefined && BigInt(newest) >= (await bed.chain.blockNumber()) - BigInt(CONFIRMATIONS) + 1n;
}

describe('reconciliation', () => {
  it('shows on-chain USDT beside credited minus swept, flags differences, makes a sweep plan, and matches the sweep the follower reads', async () => {
    const { chain, usdt, worker, harness, operator } = bed;
    const fullAccount = await chain.newAccount();
    const emptyAccount = await chain.newAccount();
    await chain.request('hardhat_setBalance', [emptyAccount.address, '0x0']);
    const full = await customerWithAddress(fullAccount);
    const empty = await customerWithAddress(emptyAccount);
    const sender = await chain.newAccount();
    await chain.mint(usdt, sender.address, 1_000_000_000n);
    await chain.transfer(usdt, sender, full.address, 50_000_000n);
    await chain.transfer(usdt, sender, empty.address, 40_000_000n);
    // Below the minimum: on chain, recorded, not credited.
    await chain.transfer(usdt, sender, empty.address, 5_000_000n);
    await chain.mine(CONFIRMATIONS);
    await tickUntil(
      worker,
      async () => (await balanceMicros(harness, full.user.id)) === 50_000_000n && (await balanceMicros(harness, empty.user.id)) === 40_000_000n,
    );
    await tickUntil(worker, followerCaughtUp);

    const customer = await signUpVerifiedUser(harness.app);
    expect((await call(app.app, { url: '/api/admin/reconciliation?network=ERC20', cookie: customer.cookie })).statusCode).toBe(403);
    expect((await call(app.app, { url: '/api/admin/reconciliation?network=ERC20&limit=1000', cookie: admin.cookie })).statusCode).toBe(400);
    expect((await call(app.app, { url: '/api/admin/reconciliation?network=TRC20', cookie: admin.cookie })).statusCode).toBe(503);

    const response = await call(app.app, { url: '/api/admin/reconciliation?network=ERC20', cookie: admin.cookie });
    expectStatus(response, 200);
    const report = response.json<ReconciliationResponse>();
    const rowOf = (address: string) => report.items.find((row) => row.address === address);
    expect(rowOf(full.address)).toMatchObject({
      userId: full.user.id,
      onChain: '50.000000',
      credited: '50.000000',
      swept: '0.000000',
      expected: '50.000000',
      difference: '0.000000',
      problem: null,
    });
    expect(rowOf(empty.address)).toMatchObject({
      onChain: '45.000000',
      credited: '40.000000',
      expected: '40.000000',
      difference: '5.000000',
      problem: 'more_on_chain',
    });
    expect(report.shared).toMatchObject({ kind: 'shared', address: operator.address.toLowerCase() });
    expect(report.pageTotals.flagged).toBeGreaterThanOrEqual(1);
    expect(report.networkTotals).toMatchObject({ credited: '90.000000', swept: '0.000000', expected: '90.000000', addresses: 2 });

    const firstPage = (await call(app.app, { url: '/api/admin/reconciliation?network=ERC20&limit=1', cookie: admin.cookie })).json<ReconciliationResponse>();
    expect(firstPage.items).toHaveLength(1);
    expect(firstPage.nextCursor).not.toBeNull();
    const secondPage = (
      await call(app.app, { url: `/api/admin/reconciliation?network=ERC20&limit=1&cursor=${firstPage.nextCursor ?? ''}`, cookie: admin.cookie })
    ).json<ReconciliationResponse>();
    expect(secondPage.items.map((row) => row.address)).not.toEqual(firstPage.items.map((row) => row.address));

    // The sweep plan: both addresses hold at least 30; the one without ETH needs gas first.
    expect(
      (await call(app.app, { method: 'POST', url: '/api/admin/reconciliation/sweep-plans', cookie: admin.cookie, body: { network: 'ERC20', threshold: '0' } }))
        .statusCode,
    ).toBe(400);
    const created = await call(app.app, {
      method: 'POST',
      url: '/api/admin/reconciliation/sweep-plans',
      cookie: admin.cookie,
      body: { network: 'ERC20', threshold: '30' },
    });
    expectStatus(created, 201);
    const plan = created.json<SweepPlan>();
    expect(plan.items).toEqual([
      { address: full.address, derivationPath: `m/44'/60'/0'/0/${addressIndex - 1}`, amount: '50.000000', needs: 'nothing', sweep: null },
      {
        address: empty.address,
        derivationPath: `m/44'/60'/0'/0/${addressIndex}`,
        amount: '45.000000',
        needs: expect.stringMatching(/^0\.\d+ ETH for gas first$/),
        sweep: null,
      },
    ]);
    const csv = await call(app.app, { url: `/api/admin/reconciliation/sweep-plans/${plan.id}/csv`, cookie: admin.cookie });
    expectStatus(csv, 200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')[0]).toBe('"network","address","derivation_path","amount_usdt","needs_first","swept_in_transaction"');
    expect(csv.body).toContain(`"ERC20","${full.address}","m/44'/60'/0'/0/${addressIndex - 1}","50.000000","nothing",""`);

    // The custody sweeps the full address; the follower records it and matches it to the plan.
    const sweepHash = await chain.transfer(usdt, fullAccount, operator.address, 50_000_000n);
    await chain.mine(CONFIRMATIONS);
    await tickUntil(
      worker,
      async () =>
        (await call(app.app, { url: `/api/admin/reconciliation/sweep-plans/${plan.id}`, cookie: admin.cookie })).json<SweepPlan>().items[0]?.sweep !== null,
    );
    const matched = (await call(app.app, { url: `/api/admin/reconciliation/sweep-plans/${plan.id}`, cookie: admin.cookie })).json<SweepPlan>();
    expect(matched.items[0]?.sweep).toEqual({ transactionHash: sweepHash.toLowerCase(), amount: '50.000000' });
    expect(matched.items[1]?.sweep).toBeNull();
    await tickUntil(worker, followerCaughtUp);
    const after = (await call(app.app, { url: '/api/admin/reconciliation?network=ERC20', cookie: admin.cookie })).json<ReconciliationResponse>();
    expect(after.items.find((row) => row.address === full.address)).toMatchObject({
      onChain: '0.000000',
      swept: '50.000000',
      expected: '0.000000',
      problem: null,
    });
    expect(after.networkTotals).toMatchObject({ swept: '50.000000', expected: '40.000000' });
    // The customer's balance is untouched by a sweep: it moves the operator's custody, not the ledger.
    expect(await balanceMicros(harness, full.user.id)).toBe(50_000_000n);
  });
});
