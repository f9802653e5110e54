import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTronClient } from '../../src/server/features/chain/tron-client.ts';
import type { ChainWorker } from '../../src/server/features/chain/worker.ts';
import { tronAddressFromAccountId } from '../../src/server/features/settings/addresses.ts';
import { tronMessageHash } from '../../src/server/features/wallets/signatures.ts';
import { readDeposit, startTestWorker, tickUntil } from '../fixtures/chain.ts';
import { call, createTestApp, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import { startTronStandIn, type TronStandIn } from '../fixtures/tron-stand-in.ts';
import { MAINNET_USDT_TRC20 } from '../fixtures/tron-shapes.ts';
import { balanceMicros, expectLedgerConsistent, expectStatus } from '../fixtures/wallet.ts';

/*
 * TRC20 deposits verified through the TRON client against a local stand-in of
 * the documented TRON HTTP API (no TRON node runs here; see decision record 012).
 */

const OPERATOR = tronAddressFromAccountId(Buffer.alloc(20, 9));
const OTHER_TOKEN = tronAddressFromAccountId(Buffer.alloc(20, 7));
const API_KEY = 'test-key-123';
let tron: TronStandIn;
let harness: TestApp;
let worker: ChainWorker;

beforeAll(async () => {
  tron = await startTronStandIn();
  harness = await createTestApp();
  await harness.database.handle.db.execute(sql`update admin_settings set trc20_address = ${OPERATOR}, erc20_address = '0x52908400098527886E0F7030069857D2E4169EE7' where id = 1`);
  worker = startTestWorker(harness, [createTronClient({ apiUrl: tron.apiUrl, apiKey: API_KEY, usdtContract: MAINNET_USDT_TRC20 })]);
  await worker.tick();
});
afterEach(async () => expectLedgerConsistent(harness));
afterAll(async () => {
  await worker.stop();
  await harness.close();
  await tron.close();
});

/** A customer who proved a TRON wallet by signing the challenge as signMessageV2 does. */
async function customerWithTronWallet(): Promise<{ user: SignedUpUser; address: string }> {
  const user = await signUpVerifiedUser(harness.app);
  const account = privateKeyToAccount(generatePrivateKey());
  const address = tronAddressFromAccountId(Buffer.from(account.address.slice(2), 'hex'));
  const challenge = await call(harness.app, { method: 'POST', url: '/api/wallets/challenge', cookie: user.cookie, body: { network: 'TRC20', address } });
  expectStatus(challenge, 200);
  const signature = await account.sign({ hash: `0x${Buffer.from(tronMessageHash(challenge.json<{ message: string }>().message)).toString('hex')}` as Hex });
  expectStatus(await call(harness.app, { method: 'POST', url: '/api/wallets', cookie: user.cookie, body: { network: 'TRC20', address, signature } }), 201);
  return { user, address };
}

async function submitted(user: SignedUpUser, transactionHash: string, amount: string): Promise<string> {
  const response = await call(harness.app, { method: 'POST', url: '/api/deposits', cookie: user.cookie, body: { network: 'TRC20', amount, transactionHash } });
  expectStatus(response, 201);
  return response.json<{ deposit: { id: string } }>().deposit.id;
}

const newHash = () => randomBytes(32).toString('hex');

describe('TRC20 deposits verified through the TRON HTTP API', () => {
  it('shows a seen transfer as confirming and credits it once the solidity node has it, sending the API key', async () => {
    const { user, address } = await customerWithTronWallet();
    const hash = newHash();
    tron.addTransfer({ id: hash, contract: MAINNET_USDT_TRC20, from: address, to: OPERATOR, amount: 21_000_000n });
    const depositId = await submitted(user, hash, '21');
    await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).chain.state === 'confirming');
    expect(await readDeposit(harness, user, depositId)).toMatchObject({ status: 'pending', chain: { requiredConfirmations: 19, fromAddress: address, toAddress: OPERATOR, amountUsdt: '21.000000' } });
    tron.advance(5);
    await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).chain.confirmations === 6);
    expect(await balanceMicros(harness, user.id)).toBe(0n);

    tron.solidify(hash);
    await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).status === 'approved');
    expect(await balanceMicros(harness, user.id)).toBe(21_000_000n);
    expect(tron.apiKeysSeen.length).toBeGreaterThan(0);
    expect(new Set(tron.apiKeysSeen)).toEqual(new Set([API_KEY]));
  });

  it('reports an unknown hash as not found, a FAILED one as failed, another token as wrong token, and credits none', async () => {
    const { user, address } = await customerWithTronWallet();
    const unknown = newHash();
    const failed = newHash();
    const otherToken = newHash();
    tron.addTransfer({ id: failed, contract: MAINNET_USDT_TRC20, from: address, to: OPERATOR, amount: 20_000_000n, failed: true });
    tron.solidify(failed);
    tron.addTransfer({ id: otherToken, contract: OTHER_TOKEN, from: address, to: OPERATOR, amount: 20_000_000n });
    tron.solidify(otherToken);
    const ids = { unknown: await submitted(user, unknown, '20'), failed: await submitted(user, failed, '20'), otherToken: await submitted(user, otherToken, '20') };
    await tickUntil(worker, async () => {
      const states = await Promise.all(Object.values(ids).map(async (id) => (await readDeposit(harness, user, id)).chain.state));
      return states.every((state) => state !== 'unchecked');
    });
    expect((await readDeposit(harness, user, ids.unknown)).chain.state).toBe('not_found');
    expect((await readDeposit(harness, user, ids.failed)).chain.state).toBe('failed');
    expect((await readDeposit(harness, user, ids.otherToken)).chain).toMatchObject({ state: 'mismatch', problem: 'wrong_token' });
    expect(await balanceMicros(harness, user.id)).toBe(0n);
  });

  it('detects a final transfer from a verified wallet without a submitted hash', async () => {
    const { user, address } = await customerWithTronWallet();
    const hash = newHash();
    tron.addTransfer({ id: hash, contract: MAINNET_USDT_TRC20, from: address, to: OPERATOR, amount: 33_000_000n });
    tron.solidify(hash);
    await tickUntil(worker, async () => (await balanceMicros(harness, user.id)) === 33_000_000n);
    const history = await call(harness.app, { url: '/api/transactions?type=deposit', cookie: user.cookie });
    expect(history.json<{ items: { transactionHash: string; status: string }[] }>().items).toEqual([expect.objectContaining({ transactionHash: hash, status: 'approved' })]);
  });

  it('survives a rate-limited provider (HTTP 429): the deposit shows the delay and is credited when it answers again', async () => {
    const { user, address } = await customerWithTronWallet();
    const hash = newHash();
    tron.addTransfer({ id: hash, contract: MAINNET_USDT_TRC20, from: address, to: OPERATOR, amount: 14_000_000n });
    tron.solidify(hash);
    tron.pause();
    try {
      const depositId = await submitted(user, hash, '14');
      await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).chain.delayed);
      tron.resume();
      await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).status === 'approved');
      expect(await balanceMicros(harness, user.id)).toBe(14_000_000n);
    } finally {
      tron.resume();
    }
  });
});
