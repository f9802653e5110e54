import { sql } from 'drizzle-orm';
import { mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import type { DepositAddressAnswer } from '#shared/contracts/deposit-addresses';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { keyAtPath, TEST_DEPOSIT_XPUBS, TEST_MNEMONIC } from '../fixtures/deposit-keys.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { call, createTestApp, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';

/*
 * The deposit keys in the admin settings (decision 045): set where the environment sets none, never
 * anything private (refused with a clear error, never stored, never repeated), under two-person
 * control once two admins exist, and a changed key never moves an issued address. The tests run in
 * order: the first ones with one admin.
 */

const { harness, admin } = useIntegrationFile();

function setKey(user: SignedUpUser, body: unknown) {
  return call(harness.app, { method: 'POST', url: '/api/admin/deposit-keys', cookie: user.cookie, body });
}

async function storedKeys(): Promise<{ network: string; extended_public_key: string }[]> {
  return (await harness.database.handle.db.execute(sql`select network, extended_public_key from deposit_extended_keys order by network`)).rows as {
    network: string;
    extended_public_key: string;
  }[];
}

const MNEMONIC_WORDS = TEST_MNEMONIC;
const ACCOUNT_PRIVATE = keyAtPath(TEST_MNEMONIC, "m/44'/60'/0'");
const CHILD_PRIVATE_HEX = Buffer.from(keyAtPath(TEST_MNEMONIC, "m/44'/60'/0'/0/0").privateKey as Uint8Array).toString('hex');

describe('deposit keys in the settings', () => {
  it('refuses anything private with a clear error that never repeats it, and stores nothing', async () => {
    const cases: [string, string][] = [
      [ACCOUNT_PRIVATE.privateExtendedKey, 'is an extended private key, which must never be given to this server'],
      [MNEMONIC_WORDS, 'looks like a mnemonic (seed phrase), which must never be given to this server'],
      [CHILD_PRIVATE_HEX, 'looks like a hexadecimal private key, which must never be given to this server'],
      [`0x${CHILD_PRIVATE_HEX}`, 'looks like a hexadecimal private key, which must never be given to this server'],
      [keyAtPath(TEST_MNEMONIC, "m/44'/60'/0'/0").publicExtendedKey, 'must be the account-level key of'],
    ];
    for (const [value, words] of cases) {
      const response = await setKey(admin, { network: 'ERC20', extendedPublicKey: value });
      expect(response.statusCode, value.slice(0, 8)).toBe(400);
      const error = response.json<{ error: { message: string; fields: Record<string, string> } }>().error;
      expect(error.fields.extendedPublicKey).toContain(words);
      expect(response.body).not.toContain(value.slice(4, 40));
    }
    const audit = await harness.database.handle.db.execute(sql`select count(*)::int as count from audit_log where action = 'deposit_key.set'`);
    expect(audit.rows[0]).toEqual({ count: 0 });
    expect(await storedKeys()).toEqual([]);
    // Customers cannot set keys.
    const customer = await signUpVerifiedUser(harness.app);
    expect((await setKey(customer, { network: 'ERC20', extendedPublicKey: TEST_DEPOSIT_XPUBS.ERC20 })).statusCode).toBe(403);
    expect((await call(harness.app, { url: '/api/deposits/address?network=ERC20', cookie: customer.cookie })).statusCode).toBe(404);
  });

  it('with one admin, sets a key at once; customers then get their own address under it, and the other network’s key is refused for this one', async () => {
    const saved = await setKey(admin, { network: 'ERC20', extendedPublicKey: TEST_DEPOSIT_XPUBS.ERC20 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<{ key: unknown }>().key).toEqual({
      network: 'ERC20',
      keyHint: `${TEST_DEPOSIT_XPUBS.ERC20.slice(0, 8)}…${TEST_DEPOSIT_XPUBS.ERC20.slice(-6)}`,
      source: 'settings',
      addressesIssued: 0,
    });
    expect(saved.body).not.toContain(TEST_DEPOSIT_XPUBS.ERC20);
    const customer = await signUpVerifiedUser(harness.app);
    const answer = (await call(harness.app, { url: '/api/deposits/address?network=ERC20', cookie: customer.cookie })).json<DepositAddressAnswer>();
    expect(answer.address).toBe(mnemonicToAccount(TEST_MNEMONIC, { addressIndex: answer.index }).address.toLowerCase());
    expect((await setKey(admin, { network: 'TRC20', extendedPublicKey: TEST_DEPOSIT_XPUBS.ERC20 })).statusCode).toBe(400);
    expect((await setKey(admin, { network: 'ERC20', extendedPublicKey: TEST_DEPOSIT_XPUBS.ERC20 })).statusCode).toBe(400);
    const listed = await call(harness.app, { url: '/api/admin/deposit-keys', cookie: admin.cookie });
    expect(listed.json<{ items: { network: string; source: string | null; addressesIssued: number }[] }>().items).toEqual([
      expect.objectContaining({ network: 'TRC20', source: null, addressesIssued: 0 }),
      expect.objectContaining({ network: 'ERC20', source: 'settings', addressesIssued: 1 }),
    ]);
  });

  it('lets the environment win: a network whose key the environment sets cannot be changed in the settings', async () => {
    const fromEnvironment = await createTestApp({ database: harness.database, depositExtendedPublicKeys: { TRC20: TEST_DEPOSIT_XPUBS.TRC20 } });
    try {
      const response = await call(fromEnvironment.app, {
        method: 'POST',
        url: '/api/admin/deposit-keys',
        cookie: admin.cookie,
        body: { network: 'TRC20', extendedPublicKey: keyAtPath(TEST_MNEMONIC, "m/44'/195'/1'").publicExtendedKey },
      });
      expect(response.statusCode).toBe(409);
      expect(response.json<{ error: { message: string } }>().error.message).toBe(
        "This key is set in the server's environment (DEPOSIT_XPUB_TRC20), which wins over the settings. Change it there.",
      );
      const listed = await call(fromEnvironment.app, { url: '/api/admin/deposit-keys', cookie: admin.cookie });
      expect(listed.json<{ items: { network: string; source: string | null }[] }>().items[0]).toMatchObject({ network: 'TRC20', source: 'environment' });
    } finally {
      await fromEnvironment.close();
    }
    expect((await storedKeys()).map((row) => row.network)).toEqual(['ERC20']);
  });

  it('with two admins, a key change waits for the second admin; once confirmed, issued addresses keep theirs and newcomers get addresses under the new key', async () => {
    const second = await signUpAdminWithVerifiedPin(harness);
    const early = await signUpVerifiedUser(harness.app);
    const earlyAddress = (await call(harness.app, { url: '/api/deposits/address?network=ERC20', cookie: early.cookie })).json<DepositAddressAnswer>();
    const newKey = keyAtPath(TEST_MNEMONIC, "m/44'/60'/1'").publicExtendedKey;

    const requested = await setKey(admin, { network: 'ERC20', extendedPublicKey: newKey });
    expect(requested.statusCode).toBe(202);
    const change = requested.json<{ pendingChange: { id: string; kind: string; to: string } }>().pendingChange;
    expect(change.kind).toBe('deposit_xpub');
    expect(change.to).not.toContain(newKey);
    expect((await storedKeys())[0]?.extended_public_key).toBe(TEST_DEPOSIT_XPUBS.ERC20);
    expect((await setKey(second, { network: 'ERC20', extendedPublicKey: newKey })).statusCode).toBe(409);
    expect((await call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${change.id}/confirm`, cookie: admin.cookie })).statusCode).toBe(403);
    expect((await call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${change.id}/confirm`, cookie: second.cookie })).statusCode).toBe(200);
    expect((await storedKeys())[0]?.extended_public_key).toBe(newKey);

    expect((await call(harness.app, { url: '/api/deposits/address?network=ERC20', cookie: early.cookie })).json()).toEqual(earlyAddress);
    const newcomer = await signUpVerifiedUser(harness.app);
    const theirs = (await call(harness.app, { url: '/api/deposits/address?network=ERC20', cookie: newcomer.cookie })).json<DepositAddressAnswer>();
    expect(theirs.index).toBe(0);
    expect(theirs.address).toBe(mnemonicToAccount(TEST_MNEMONIC, { accountIndex: 1, addressIndex: 0 }).address.toLowerCase());
    const audit = await harness.database.handle.db.execute(sql`select after::text as after from audit_log where action = 'deposit_key.set'`);
    expect(audit.rows.map((row) => String(row.after)).join(' ')).not.toContain(newKey);
  });
});
