import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DepositAddressAnswer } from '#shared/contracts/deposit-addresses';
import type { ReconciliationResponse, ReconciliationRow, SweepPlan } from '#shared/contracts/reconciliation';
import { ChainProviderError } from '../../src/server/features/chain/observation.ts';
import { createTronClient } from '../../src/server/features/chain/tron-client.ts';
import type { ChainWorker } from '../../src/server/features/chain/worker.ts';
import { tronAddressFromAccountId } from '../../src/server/features/settings/addresses.ts';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { startTronTestBed, tickUntil, type TronTestBed } from '../fixtures/chain.ts';
import { call, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import type { TronStandIn } from '../fixtures/tron-stand-in.ts';
import { accountIdHex, MAINNET_USDT_TRC20 } from '../fixtures/tron-shapes.ts';
import { balanceMicros, expectLedgerConsistent, expectStatus } from '../fixtures/wallet.ts';

/*
 * The reconciliation and the sweep plan (decision 045) on TRON, through the same client the
 * follower uses, against the local stand-in of a java-tron node on two ports: USDT balances
 * read with /walletsolidity/triggerconstantcontract (balanceOf, the state after final blocks)
 * and TRX with /walletsolidity/getaccount, beside what the app credited minus what it swept.
 */

const OPERATOR = tronAddressFromAccountId(Buffer.alloc(20, 9));
const STRANGER = tronAddressFromAccountId(Buffer.alloc(20, 5));
let tron: TronStandIn;
let harness: TestApp;
let worker: ChainWorker;
let admin: SignedUpUser;
let bed: TronTestBed;

beforeAll(async () => {
  bed = await startTronTestBed(OPERATOR);
  ({ tron, harness, worker } = bed);
  admin = await signUpAdminWithVerifiedPin(harness);
}, 120_000);
afterEach(async () => expectLedgerConsistent(harness));
afterAll(async () => {
  await bed.close();
});

const newHash = () => randomBytes(32).toString('hex');

async function customerWithAddress(): Promise<{ user: SignedUpUser; address: string; index: number }> {
  const user = await signUpVerifiedUser(harness.app);
  const response = await call(harness.app, { url: '/api/deposits/address?network=TRC20', cookie: user.cookie });
  expectStatus(response, 200);
  const { address, index } = response.json<DepositAddressAnswer>();
  return { user, address, index };
}

/** A final transfer: added in a new block, then that block solidified. */
function finalTransfer(from: string, to: string, amount: bigint): string {
  const id = newHash();
  tron.addTransfer({ id, contract: MAINNET_USDT_TRC20, from, to, amount });
  tron.solidify(id);
  return id;
}

async function followerCaughtUp(): Promise<boolean> {
  const newest = (
    await harness.database.handle.db.execute<{ newest: string | null }>(sql`select max(block_number)::text as newest from chain_blocks where network = 'TRC20'`)
  ).rows[0]?.newest;
  const solidified = (await (await fetch(`${tron.solidityNodeUrl}/walletsolidity/getnowblock`, { method: 'POST', body: '{}' })).json()) as {
    block_header: { raw_data: { number: number } };
  };
  return newest !== null && newest !== undefined && BigInt(newest) >= BigInt(solidified.block_header.raw_data.number);
}

async function reconciliation(): Promise<ReconciliationResponse> {
  const response = await call(harness.app, { url: '/api/admin/reconciliation?network=TRC20', cookie: admin.cookie });
  expectStatus(response, 200);
  return response.json<ReconciliationResponse>();
}

function makeSweepPlan(threshold: string) {
  return call(harness.app, { method: 'POST', url: '/api/admin/reconciliation/sweep-plans', cookie: admin.cookie, body: { network: 'TRC20', threshold } });
}

function rowOf(report: ReconciliationResponse, address: string): ReconciliationRow | undefined {
  return report.items.find((row) => row.address === address);
}

describe('TRON reconciliation', () => {
  it('shows balances that agree, more on chain, a shortfall and the shared address; counts only final blocks; plans a sweep with the TRX it needs and matches it', async () => {
    const agreeing = await customerWithAddress();
    const belowMinimum = await customerWithAddress();
    const burnt = await customerWithAddress();
    finalTransfer(STRANGER, agreeing.address, 50_000_000n);
    finalTransfer(STRANGER, belowMinimum.address, 40_000_000n);
    // Below the 10 USDT minimum: on chain and recorded, not credited.
    finalTransfer(STRANGER, belowMinimum.address, 5_000_000n);
    finalTransfer(STRANGER, burnt.address, 30_000_000n);
    finalTransfer(STRANGER, OPERATOR, 7_000_000n);
    await tickUntil(
      worker,
      async () =>
        (await balanceMicros(harness, agreeing.user.id)) === 50_000_000n &&
        (await balanceMicros(harness, belowMinimum.user.id)) === 40_000_000n &&
        (await balanceMicros(harness, burnt.user.id)) === 30_000_000n,
    );
    // Tether blacklists and burns one address's USDT: no Transfer event, so nothing the follower could record.
    const burn = newHash();
    tron.destroyBlackFunds({ id: burn, contract: MAINNET_USDT_TRC20, address: burnt.address });
    tron.solidify(burn);
    // Seen on the full node but not final: neither credited nor counted on chain.
    tron.addTransfer({ id: newHash(), contract: MAINNET_USDT_TRC20, from: STRANGER, to: agreeing.address, amount: 9_000_000n });
    await tickUntil(worker, followerCaughtUp);

    const customer = await signUpVerifiedUser(harness.app);
    expect((await call(harness.app, { url: '/api/admin/reconciliation?network=TRC20', cookie: customer.cookie })).statusCode).toBe(403);
    const requestsBefore = tron.solidityRequests.length;
    const report = await reconciliation();
    expect(tron.solidityRequests.slice(requestsBefore)).toContain('/walletsolidity/triggerconstantcontract');
    expect(report).toMatchObject({ network: 'TRC20', asOfBlock: null });
    expect(rowOf(report, agreeing.address)).toEqual({
      address: agreeing.address,
      kind: 'customer',
      userId: agreeing.user.id,
      email: agreeing.user.email,
      onChain: '50.000000',
      credited: '50.000000',
      swept: '0.000000',
      expected: '50.000000',
      difference: '0.000000',
      problem: null,
    });
    expect(rowOf(report, belowMinimum.address)).toMatchObject({
      onChain: '45.000000',
      credited: '40.000000',
      expected: '40.000000',
      difference: '5.000000',
      problem: 'more_on_chain',
    });
    expect(rowOf(report, burnt.address)).toMatchObject({
      onChain: '0.000000',
      credited: '30.000000',
      expected: '30.000000',
      difference: '-30.000000',
      problem: 'less_on_chain',
    });
    // The shared address was credited nothing (the transfer to it had no claim); its 7 USDT show as more on chain.
    expect(report.shared).toMatchObject({ kind: 'shared', address: OPERATOR, onChain: '7.000000', credited: '0.000000', problem: 'more_on_chain' });
    expect(report.pageTotals).toEqual({ onChain: '102.000000', expected: '120.000000', difference: '-18.000000', flagged: 3 });
    expect(report.networkTotals).toEqual({ credited: '120.000000', swept: '0.000000', expected: '120.000000', addresses: 3 });

    // The sweep plan: the agreeing address holds TRX for the fee, the other none (not even an account).
    tron.setTrxBalance(agreeing.address, 45_000_000n);
    const created = await makeSweepPlan('20');
    expectStatus(created, 201);
    const plan = created.json<SweepPlan>();
    expect(plan.items).toEqual([
      { address: agreeing.address, derivationPath: `m/44'/195'/0'/0/${agreeing.index}`, amount: '50.000000', needs: 'nothing', sweep: null },
      {
        address: belowMinimum.address,
        derivationPath: `m/44'/195'/0'/0/${belowMinimum.index}`,
        amount: '45.000000',
        needs: '30.000000 TRX first, or about 65,000 energy delegated to the address',
        sweep: null,
      },
    ]);
    // An account with too little TRX needs the rest.
    tron.setTrxBalance(belowMinimum.address, 12_500_000n);
    const second = (await makeSweepPlan('20')).json<SweepPlan>();
    expect(second.items[1]?.needs).toBe('17.500000 TRX first, or about 65,000 energy delegated to the address');

    // The custody sweeps the agreeing address; the follower records the sweep and matches it to the newest plan.
    const sweep = finalTransfer(agreeing.address, OPERATOR, 50_000_000n);
    await tickUntil(
      worker,
      async () =>
        (await call(harness.app, { url: `/api/admin/reconciliation/sweep-plans/${second.id}`, cookie: admin.cookie })).json<SweepPlan>().items[0]?.sweep !==
        null,
    );
    const matched = (await call(harness.app, { url: `/api/admin/reconciliation/sweep-plans/${second.id}`, cookie: admin.cookie })).json<SweepPlan>();
    expect(matched.items[0]?.sweep).toEqual({ transactionHash: sweep, amount: '50.000000' });
    await tickUntil(worker, followerCaughtUp);
    const after = await reconciliation();
    // The 9 USDT seen earlier became final with the sweep's block: below the minimum, so on chain and not credited.
    expect(rowOf(after, agreeing.address)).toMatchObject({ onChain: '9.000000', swept: '50.000000', expected: '0.000000', problem: 'more_on_chain' });
    expect(after.networkTotals).toMatchObject({ swept: '50.000000', expected: '70.000000' });
    expect(await balanceMicros(harness, agreeing.user.id)).toBe(50_000_000n);
  });

  it('does not call a sweep that is final on the node but not yet read by the follower a shortfall; compares it once the follower read it', async () => {
    const swept = await customerWithAddress();
    const untouched = await customerWithAddress();
    finalTransfer(STRANGER, swept.address, 30_000_000n);
    finalTransfer(STRANGER, untouched.address, 12_000_000n);
    await tickUntil(worker, followerCaughtUp);
    expect(await balanceMicros(harness, swept.user.id)).toBe(30_000_000n);
    // The custody sweeps the address; the block is final on the node, and the follower has not run since.
    finalTransfer(swept.address, OPERATOR, 30_000_000n);
    expect(await followerCaughtUp()).toBe(false);
    const before = await reconciliation();
    expect(rowOf(before, swept.address)).toMatchObject({
      onChain: '0.000000',
      credited: '30.000000',
      swept: '0.000000',
      difference: null,
      problem: 'not_followed_yet',
    });
    expect(before.shared).toMatchObject({ difference: null, problem: 'not_followed_yet' });
    // An address the unread blocks do not touch is compared as usual.
    expect(rowOf(before, untouched.address)).toMatchObject({ onChain: '12.000000', difference: '0.000000', problem: null });
    await tickUntil(worker, followerCaughtUp);
    const after = await reconciliation();
    expect(rowOf(after, swept.address)).toMatchObject({ onChain: '0.000000', swept: '30.000000', expected: '0.000000', difference: '0.000000', problem: null });
    expect(after.shared?.problem).not.toBe('not_followed_yet');
  });

  it('flags every balance it cannot read as unreadable, never guessed, and refuses a sweep plan while the node does not answer', async () => {
    const { address } = await customerWithAddress();
    finalTransfer(STRANGER, address, 20_000_000n);
    await tickUntil(worker, followerCaughtUp);
    tron.pause();
    try {
      const report = await reconciliation();
      expect(report.items.length).toBeGreaterThan(0);
      for (const row of [...report.items, report.shared]) expect(row).toMatchObject({ onChain: null, difference: null, problem: 'unreadable' });
      expect(report.pageTotals.flagged).toBe(report.items.length + 1);
      const plan = await makeSweepPlan('1');
      expect(plan.statusCode).toBe(503);
      expect(plan.json<{ error: { message: string } }>().error.message).toBe('The chain provider could not be read just now. Try again in a minute.');
    } finally {
      tron.resume();
    }
    expect(rowOf(await reconciliation(), address)).toMatchObject({ onChain: '20.000000', problem: null });
  });

  it('reads what the node documents: a contract that is not one is refused, an address never given TRX holds none, the solidity state lags the full node', async () => {
    const options = { fullNodeUrl: tron.fullNodeUrl, solidityNodeUrl: tron.solidityNodeUrl, apiKey: undefined };
    const notAContract = createTronClient({ ...options, usdtContract: tronAddressFromAccountId(Buffer.alloc(20, 3)) });
    await expect(notAContract.accounts.usdtBalanceOf(STRANGER, undefined)).rejects.toBeInstanceOf(ChainProviderError);
    const client = createTronClient({ ...options, usdtContract: MAINNET_USDT_TRC20 });
    const fresh = tronAddressFromAccountId(randomBytes(20));
    expect(await client.accounts.nativeBalanceOf(fresh)).toBe(0n);
    tron.setTrxBalance(fresh, 0n);
    expect(await client.accounts.nativeBalanceOf(fresh)).toBe(0n);
    tron.addTransfer({ id: newHash(), contract: MAINNET_USDT_TRC20, from: STRANGER, to: fresh, amount: 3_000_000n });
    expect(await client.accounts.usdtBalanceOf(fresh, undefined)).toBe(0n);
    // The full node already counts the transfer: java-tron's hex form (visible false), the message in hex when refused.
    const ask = async (path: string, body: unknown) =>
      (await (await fetch(`${tron.fullNodeUrl}${path}`, { method: 'POST', body: JSON.stringify(body) })).json()) as Record<string, unknown>;
    const accountId = accountIdHex(fresh);
    const answer = await ask('/wallet/triggerconstantcontract', {
      owner_address: `41${accountId}`,
      contract_address: `41${accountIdHex(MAINNET_USDT_TRC20)}`,
      function_selector: 'balanceOf(address)',
      parameter: accountId.padStart(64, '0'),
    });
    expect(answer).toMatchObject({ result: { result: true }, constant_result: [(3_000_000).toString(16).padStart(64, '0')] });
    const missing = await ask('/wallet/triggerconstantcontract', {
      contract_address: `41${accountIdHex(MAINNET_USDT_TRC20)}`,
      function_selector: 'balanceOf(address)',
    });
    expect(missing).toMatchObject({ result: { code: 'OTHER_ERROR' } });
    expect(Buffer.from((missing as { result: { message: string } }).result.message, 'hex').toString('utf8')).toBe(
      "class java.security.InvalidParameterException : owner_address isn't set.",
    );
  });
});
