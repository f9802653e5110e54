import { sql } from 'drizzle-orm';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { DEPOSIT_ADDRESS_MESSAGES, type DepositAddressAnswer } from '#shared/contracts/deposit-addresses';
import { depositAddressOwners } from '../../src/server/features/chain/follower-repository.ts';
import { deriveDepositAddress } from '../../src/server/features/deposit-addresses/derivation.ts';
import { tronAddressFromAccountId } from '../../src/server/features/settings/addresses.ts';
import { keyAtPath, TEST_DEPOSIT_XPUBS, TEST_MNEMONIC } from '../fixtures/deposit-keys.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { call, createTestApp, signUpUser, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import type { ApiApp } from '../../src/server/http/types.ts';

const { harness } = useIntegrationFile({ admin: false, app: { depositExtendedPublicKeys: TEST_DEPOSIT_XPUBS } });

function ownAddress(user: SignedUpUser, network: string, app: ApiApp = harness.app) {
  return call(app, { url: `/api/deposits/address?network=${network}`, cookie: user.cookie });
}

async function rowsOf(userId: string): Promise<{ network: string; address_index: number; address: string; extended_public_key: string }[]> {
  const result = await harness.context.database.db.execute(
    sql`select network, address_index, address, extended_public_key from deposit_addresses where user_id = ${userId} order by network, created_at`,
  );
  return result.rows as { network: string; address_index: number; address: string; extended_public_key: string }[];
}

describe('GET /api/deposits/address', () => {
  it('answers the customer’s own address derived at .../0/index, the same on every later call', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const erc20 = await ownAddress(customer, 'ERC20');
    expect(erc20.statusCode).toBe(200);
    const answer = erc20.json<DepositAddressAnswer>();
    expect(answer.network).toBe('ERC20');
    expect(answer.address).toBe(mnemonicToAccount(TEST_MNEMONIC, { addressIndex: answer.index }).address.toLowerCase());

    const trc20 = (await ownAddress(customer, 'TRC20')).json<DepositAddressAnswer>();
    const tronAccount = privateKeyToAccount(
      `0x${Buffer.from(keyAtPath(TEST_MNEMONIC, `m/44'/195'/0'/0/${trc20.index}`).privateKey as Uint8Array).toString('hex')}`,
    );
    expect(trc20.address).toBe(tronAddressFromAccountId(Buffer.from(tronAccount.address.slice(2), 'hex')));

    expect((await ownAddress(customer, 'ERC20')).json()).toEqual(answer);
    expect((await ownAddress(customer, 'TRC20')).json()).toEqual(trc20);
    const rows = await rowsOf(customer.id);
    expect(rows.map((row) => [row.network, row.address_index, row.address, row.extended_public_key])).toEqual([
      ['ERC20', answer.index, answer.address, TEST_DEPOSIT_XPUBS.ERC20],
      ['TRC20', trc20.index, trc20.address, TEST_DEPOSIT_XPUBS.TRC20],
    ]);
  });

  it('gives concurrent first requests of one customer one address', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const answers = await Promise.all(Array.from({ length: 8 }, () => ownAddress(customer, 'TRC20')));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(await rowsOf(customer.id)).toHaveLength(1);
  });

  it('never gives two customers one index or one address, even when they all ask at once; indexes run without gaps', async () => {
    const customers = await Promise.all(Array.from({ length: 12 }, () => signUpVerifiedUser(harness.app)));
    const answers = await Promise.all(
      customers.flatMap((customer) => [ownAddress(customer, 'ERC20'), ownAddress(customer, 'ERC20'), ownAddress(customer, 'TRC20')]),
    );
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    for (const network of ['ERC20', 'TRC20'] as const) {
      const result = await harness.context.database.db.execute(
        sql`select address_index, address, user_id from deposit_addresses where network = ${network} and extended_public_key = ${TEST_DEPOSIT_XPUBS[network]} order by address_index`,
      );
      const rows = result.rows as { address_index: number; address: string; user_id: string }[];
      expect(rows.map((row) => row.address_index)).toEqual(rows.map((_, position) => position));
      expect(new Set(rows.map((row) => row.address)).size).toBe(rows.length);
      expect(new Set(rows.map((row) => row.user_id)).size).toBe(rows.length);
      for (const row of rows) expect(row.address).toBe(deriveDepositAddress(network, TEST_DEPOSIT_XPUBS[network], row.address_index));
    }
  });

  it('answers only the signed-in customer’s own address: no session 401, unverified PIN 403, no way to name another customer', async () => {
    const owner = await signUpVerifiedUser(harness.app);
    const other = await signUpVerifiedUser(harness.app);
    const ownersAddress = (await ownAddress(owner, 'ERC20')).json<DepositAddressAnswer>();

    expect((await call(harness.app, { url: '/api/deposits/address?network=ERC20' })).statusCode).toBe(401);
    const unverified = await signUpUser(harness.app);
    const pinRequired = await ownAddress(unverified, 'ERC20');
    expect(pinRequired.statusCode).toBe(403);
    expect(pinRequired.json<{ error: { code: string } }>().error.code).toBe('PIN_REQUIRED');
    expect(await rowsOf(unverified.id)).toEqual([]);

    const naming = await call(harness.app, { url: `/api/deposits/address?network=ERC20&userId=${owner.id}`, cookie: other.cookie });
    expect(naming.statusCode).toBe(400);
    const othersAddress = (await ownAddress(other, 'ERC20')).json<DepositAddressAnswer>();
    expect(othersAddress.address).not.toBe(ownersAddress.address);
    expect(othersAddress.index).not.toBe(ownersAddress.index);
  });

  it('refuses a missing or unknown network with a clear message and assigns nothing', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    for (const query of ['', '?network=BEP20', '?network=erc20']) {
      const response = await call(harness.app, { url: `/api/deposits/address${query}`, cookie: customer.cookie });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: { message: string } }>().error.message).toMatch(/network/i);
    }
    expect(await rowsOf(customer.id)).toEqual([]);
  });

  it('without an extended public key for the network answers 404 DEPOSIT_ADDRESS_NOT_CONFIGURED and stores nothing', async () => {
    const onlyTron = await createTestApp({ database: harness.database, depositExtendedPublicKeys: { TRC20: TEST_DEPOSIT_XPUBS.TRC20 } });
    try {
      const customer = await signUpVerifiedUser(onlyTron.app);
      const response = await ownAddress(customer, 'ERC20', onlyTron.app);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'DEPOSIT_ADDRESS_NOT_CONFIGURED', message: DEPOSIT_ADDRESS_MESSAGES.notConfigured } });
      expect((await ownAddress(customer, 'TRC20', onlyTron.app)).statusCode).toBe(200);
      expect((await rowsOf(customer.id)).map((row) => row.network)).toEqual(['TRC20']);
    } finally {
      await onlyTron.close();
    }
  });

  it('after the operator changes a key the customer keeps the address they were given; a customer new to the network gets one under the new key', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const before = (await ownAddress(customer, 'TRC20')).json<DepositAddressAnswer>();
    const newKey = keyAtPath(TEST_MNEMONIC, "m/44'/195'/1'").publicExtendedKey;
    const changed = await createTestApp({ database: harness.database, depositExtendedPublicKeys: { ...TEST_DEPOSIT_XPUBS, TRC20: newKey } });
    try {
      expect((await ownAddress(customer, 'TRC20', changed.app)).json<DepositAddressAnswer>()).toEqual(before);
      expect((await rowsOf(customer.id)).map((row) => [row.address, row.extended_public_key])).toEqual([[before.address, TEST_DEPOSIT_XPUBS.TRC20]]);
      const newcomer = await signUpVerifiedUser(changed.app);
      const theirs = (await ownAddress(newcomer, 'TRC20', changed.app)).json<DepositAddressAnswer>();
      expect(theirs.address).toBe(deriveDepositAddress('TRC20', newKey, theirs.index));
      expect((await rowsOf(newcomer.id)).map((row) => row.extended_public_key)).toEqual([newKey]);
    } finally {
      await changed.close();
    }
  });

  it('keeps every assigned address for good: the database refuses to change, remove or truncate one', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const other = await signUpVerifiedUser(harness.app);
    await ownAddress(customer, 'ERC20');
    const { db } = harness.context.database;
    const refusal = (statement: Promise<unknown>) =>
      statement.then(
        () => 'done',
        (error: Error) => String(error.cause),
      );
    expect(await refusal(db.execute(sql`update deposit_addresses set user_id = ${other.id} where user_id = ${customer.id}`))).toMatch(
      /rows are permanent \(UPDATE refused\)/,
    );
    expect(await refusal(db.execute(sql`delete from deposit_addresses where user_id = ${customer.id}`))).toMatch(/rows are permanent \(DELETE refused\)/);
    expect(await refusal(db.execute(sql`truncate deposit_addresses`))).toMatch(/rows are permanent \(TRUNCATE refused\)/);
    expect(await rowsOf(customer.id)).toHaveLength(1);
  });

  it('finds the owners of a range’s recipients in one lookup, even with more distinct recipients than a statement has parameters', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const own = (await ownAddress(customer, 'ERC20')).json<DepositAddressAnswer>();
    // A busy Ethereum range pays more distinct addresses than PostgreSQL's 65,535 bind parameters.
    const strangers = Array.from({ length: 70_000 }, (_, index) => `0x${index.toString(16).padStart(40, '0')}`);
    const owners = await depositAddressOwners(harness.context.database.db, 'ERC20', [...strangers, own.address]);
    expect([...owners]).toEqual([[own.address, customer.id]]);
  });
});
