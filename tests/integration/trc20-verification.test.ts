import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTronClient } from '../../src/server/features/chain/tron-client.ts';
import type { ChainWorker } from '../../src/server/features/chain/worker.ts';
import { tronAddressFromAccountId } from '../../src/server/features/settings/addresses.ts';
import { tronMessageHash } from '../../src/server/features/wallets/signatures.ts';
import { startNotificationEmailDelivery, type NotificationEmailDelivery } from '../../src/server/platform/notifications/service.ts';
import { readDeposit, startTestWorker, tickUntil } from '../fixtures/chain.ts';
import { startTestMailServer, waitForMail, type TestMailServer } from '../fixtures/mail-server.ts';
import { call, createTestApp, signUpVerifiedUser, TEST_ORIGIN, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import { startTronStandIn, type TronStandIn } from '../fixtures/tron-stand-in.ts';
import { MAINNET_USDT_TRC20 } from '../fixtures/tron-shapes.ts';
import { balanceMicros, expectLedgerConsistent, expectStatus } from '../fixtures/wallet.ts';

/*
 * TRC20 deposits verified through the TRON client against a local stand-in of
 * the documented TRON HTTP API (no TRON node runs here; see decision records 012
 * and 036), served on two ports as a self-hosted node does: the full node and the
 * solidity node, through which detection reads final blocks.
 */

const OPERATOR = tronAddressFromAccountId(Buffer.alloc(20, 9));
const OTHER_TOKEN = tronAddressFromAccountId(Buffer.alloc(20, 7));
const API_KEY = 'test-key-123';
let tron: TronStandIn;
let mail: TestMailServer;
let harness: TestApp;
let emails: NotificationEmailDelivery;
let worker: ChainWorker;

beforeAll(async () => {
  tron = await startTronStandIn();
  mail = await startTestMailServer();
  harness = await createTestApp({ smtpUrl: mail.smtpUrl });
  await harness.database.handle.db.execute(
    sql`update admin_settings set trc20_address = ${OPERATOR}, erc20_address = '0x52908400098527886E0F7030069857D2E4169EE7' where id = 1`,
  );
  // As main.ts wires it: the worker's automatic credits poke an e-mail delivery of their own.
  emails = startNotificationEmailDelivery({
    db: harness.database.handle.db,
    mailer: harness.context.mailer,
    appOrigin: TEST_ORIGIN,
    log: pino({ level: 'silent' }),
  });
  worker = startTestWorker(
    harness,
    [createTronClient({ fullNodeUrl: tron.fullNodeUrl, solidityNodeUrl: tron.solidityNodeUrl, apiKey: API_KEY, usdtContract: MAINNET_USDT_TRC20 })],
    emails,
  );
  await worker.tick();
});
afterEach(async () => expectLedgerConsistent(harness));
afterAll(async () => {
  await worker.stop();
  await emails.stop();
  await harness.close();
  await mail.close();
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
    expect(await readDeposit(harness, user, depositId)).toMatchObject({
      status: 'pending',
      chain: { requiredConfirmations: 19, fromAddress: address, toAddress: OPERATOR, amountUsdt: '21.000000' },
    });
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
    const ids = {
      unknown: await submitted(user, unknown, '20'),
      failed: await submitted(user, failed, '20'),
      otherToken: await submitted(user, otherToken, '20'),
    };
    await tickUntil(worker, async () => {
      const states = await Promise.all(Object.values(ids).map(async (id) => (await readDeposit(harness, user, id)).chain.state));
      return states.every((state) => state !== 'unchecked');
    });
    expect((await readDeposit(harness, user, ids.unknown)).chain.state).toBe('not_found');
    expect((await readDeposit(harness, user, ids.failed)).chain.state).toBe('failed');
    expect((await readDeposit(harness, user, ids.otherToken)).chain).toMatchObject({ state: 'mismatch', problem: 'wrong_token' });
    expect(await balanceMicros(harness, user.id)).toBe(0n);
  });

  it('detects final transfers from a verified wallet without a submitted hash, reading final blocks through the solidity node', async () => {
    const { user, address } = await customerWithTronWallet();
    const stranger = tronAddressFromAccountId(Buffer.alloc(20, 5));
    const hashes = [newHash(), newHash(), newHash()];
    for (const hash of hashes) {
      tron.addTransfer({ id: hash, contract: MAINNET_USDT_TRC20, from: address, to: OPERATOR, amount: 33_000_000n });
      tron.solidify(hash);
    }
    // Neither a transfer from an unproved wallet, nor another token, nor one not final yet is detected.
    tron.addTransfer({ id: newHash(), contract: MAINNET_USDT_TRC20, from: stranger, to: OPERATOR, amount: 50_000_000n });
    const otherToken = newHash();
    tron.addTransfer({ id: otherToken, contract: OTHER_TOKEN, from: address, to: OPERATOR, amount: 60_000_000n });
    tron.solidify(otherToken);
    tron.addTransfer({ id: newHash(), contract: MAINNET_USDT_TRC20, from: address, to: OPERATOR, amount: 40_000_000n });
    const requestsBefore = tron.solidityRequests.length;

    await tickUntil(worker, async () => (await balanceMicros(harness, user.id)) === 99_000_000n);
    const history = await call(harness.app, { url: '/api/transactions?type=deposit', cookie: user.cookie });
    const items = history.json<{ items: { transactionHash: string; status: string }[] }>().items;
    expect(items.map((item) => item.transactionHash).sort()).toEqual([...hashes].sort());
    expect(items.every((item) => item.status === 'approved')).toBe(true);
    const requests = tron.solidityRequests.slice(requestsBefore);
    expect(requests).toContain('/walletsolidity/getnowblock');
    expect(requests).toContain('/walletsolidity/gettransactioninfobyblocknum');
    expect(requests).toContain('/walletsolidity/getblockbynum');
    await worker.tick();
    expect(await balanceMicros(harness, user.id)).toBe(99_000_000n);
  });

  it('credits a final transfer to a customer’s own TRON address once, whoever sent it, with java-tron’s SUCESS receipt', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const ownAddress = tronAddressFromAccountId(randomBytes(20));
    await harness.database.handle.db.execute(
      sql`insert into deposit_addresses (network, address_index, user_id, extended_public_key, address) values ('TRC20', 1, ${user.id}, 'xpub-of-the-test', ${ownAddress})`,
    );
    const stranger = tronAddressFromAccountId(Buffer.alloc(20, 6));
    const hash = newHash();
    tron.addTransaction({
      id: hash,
      transfers: [{ contract: MAINNET_USDT_TRC20, from: stranger, to: ownAddress, amount: 44_000_000n }],
      receiptResult: 'SUCESS',
    });
    tron.solidify(hash);
    await tickUntil(worker, async () => (await balanceMicros(harness, user.id)) === 44_000_000n);
    const rows = await harness.database.handle.db.execute<{ source: string; status: string; chain_log_index: number }>(
      sql`select source, status, chain_log_index from usdt_deposits where transaction_hash = ${hash}`,
    );
    expect(rows.rows).toEqual([{ source: 'detected', status: 'approved', chain_log_index: 0 }]);
    await worker.tick();
    expect(await balanceMicros(harness, user.id)).toBe(44_000_000n);
  });

  it('makes each USDT transfer to the operator in one transaction a deposit of its own, detected or submitted, each credited once', async () => {
    const { user, address } = await customerWithTronWallet();
    const stranger = tronAddressFromAccountId(Buffer.alloc(20, 5));
    const depositsOf = async (hash: string) =>
      (
        await harness.database.handle.db.execute<{ id: string; source: string; status: string; chain_log_index: number | null; amount_usdt_micros: bigint }>(
          sql`select id, source, status, chain_log_index, amount_usdt_micros from usdt_deposits where transaction_hash = ${hash} order by chain_log_index`,
        )
      ).rows;

    // Never submitted: both transfers to the operator are detected, the one to a stranger and the other token's are not.
    const detected = newHash();
    tron.addTransaction({
      id: detected,
      transfers: [
        { contract: MAINNET_USDT_TRC20, from: address, to: OPERATOR, amount: 12_000_000n },
        { contract: MAINNET_USDT_TRC20, from: address, to: stranger, amount: 70_000_000n },
        { contract: OTHER_TOKEN, from: address, to: OPERATOR, amount: 80_000_000n },
        { contract: MAINNET_USDT_TRC20, from: address, to: OPERATOR, amount: 13_000_000n },
      ],
    });
    tron.solidify(detected);
    await tickUntil(worker, async () => (await depositsOf(detected)).filter((row) => row.status === 'approved').length === 2);
    expect((await depositsOf(detected)).map((row) => [row.source, row.chain_log_index, row.amount_usdt_micros])).toEqual([
      ['detected', 0, 12_000_000n],
      ['detected', 3, 13_000_000n],
    ]);
    expect(await balanceMicros(harness, user.id)).toBe(25_000_000n);

    // Submitted: the customer's deposit takes the first transfer, detection the second.
    const submittedHash = newHash();
    tron.addTransaction({
      id: submittedHash,
      transfers: [
        { contract: MAINNET_USDT_TRC20, from: address, to: OPERATOR, amount: 20_000_000n },
        { contract: MAINNET_USDT_TRC20, from: address, to: OPERATOR, amount: 15_000_000n },
      ],
    });
    const depositId = await submitted(user, submittedHash, '20');
    tron.solidify(submittedHash);
    await tickUntil(worker, async () => {
      const rows = await depositsOf(submittedHash);
      return rows.length === 2 && rows.every((row) => row.status === 'approved');
    });
    expect(
      (await depositsOf(submittedHash)).map((row) => [row.id === depositId ? 'submitted' : row.source, row.chain_log_index, row.amount_usdt_micros]),
    ).toEqual([
      ['submitted', 0, 20_000_000n],
      ['detected', 1, 15_000_000n],
    ]);
    expect(await balanceMicros(harness, user.id)).toBe(60_000_000n);

    // Nobody can submit either hash again, and further ticks credit nothing more.
    const other = await signUpVerifiedUser(harness.app);
    for (const hash of [detected, submittedHash]) {
      const again = await call(harness.app, {
        method: 'POST',
        url: '/api/deposits',
        cookie: other.cookie,
        body: { network: 'TRC20', amount: '12', transactionHash: hash },
      });
      expect(again.statusCode).toBe(409);
    }
    await worker.tick();
    await worker.tick();
    expect(await balanceMicros(harness, user.id)).toBe(60_000_000n);
    expect((await depositsOf(detected)).length + (await depositsOf(submittedHash)).length).toBe(4);
  });

  it('e-mails and notifies the customer of an automatic credit as an admin approval does, naming the amount', async () => {
    const { user, address } = await customerWithTronWallet();
    const hash = newHash();
    tron.addTransfer({ id: hash, contract: MAINNET_USDT_TRC20, from: address, to: OPERATOR, amount: 17_250_000n });
    const depositId = await submitted(user, hash, '17.25');
    tron.solidify(hash);
    await tickUntil(worker, async () => (await readDeposit(harness, user, depositId)).status === 'approved');

    const notifications = await call(harness.app, { url: '/api/notifications', cookie: user.cookie });
    expect(notifications.json<{ items: { kind: string; title: string; body: string; link: string }[] }>().items).toEqual([
      expect.objectContaining({ kind: 'deposit_credited', title: 'Deposit credited', link: `/wallet/transactions/deposit/${depositId}` }),
    ]);
    const text = await waitForMail(mail, user.email, 'Deposit credited: 17.25 USDT', 30_000);
    expect(text).toContain('Your deposit of 17.25 USDT was checked and credited to your wallet.');
    expect(text).toContain(`Reference ID: ${depositId}`);
    expect(text).toContain(`Transaction hash: ${hash}`);
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
