import { sql } from 'drizzle-orm';
import { keccak256, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WALLET_MESSAGES } from '#shared/contracts/wallets';
import { tronAddressFromAccountId } from '../../src/server/features/settings/addresses.ts';
import { tronMessageHash } from '../../src/server/features/wallets/signatures.ts';
import { addEthereumWallet } from '../fixtures/chain.ts';
import { call, createTestApp, signUpUser, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';

let harness: TestApp;

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => harness.close());

function challenge(user: SignedUpUser, body: unknown) {
  return call(harness.app, { method: 'POST', url: '/api/wallets/challenge', cookie: user.cookie, body });
}
function register(user: SignedUpUser, body: unknown) {
  return call(harness.app, { method: 'POST', url: '/api/wallets', cookie: user.cookie, body });
}

/** A TRON key pair as TronLink holds it: the address is base58check of 0x41 and the key's Ethereum-style account id. */
function tronAccount() {
  const account = privateKeyToAccount(generatePrivateKey());
  const address = tronAddressFromAccountId(Buffer.from(account.address.slice(2), 'hex'));
  /** What TronWeb's signMessageV2 produces: a 65-byte signature of the TIP-191 hash. */
  const signMessageV2 = (message: string) => account.sign({ hash: `0x${Buffer.from(tronMessageHash(message)).toString('hex')}` as Hex });
  return { address, signMessageV2 };
}

describe('wallet proofs', () => {
  it('issues a challenge naming the product, the customer, the address, a nonce and a 10-minute expiry', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const account = privateKeyToAccount(generatePrivateKey());
    const response = await challenge(user, { network: 'ERC20', address: account.address.toLowerCase() });
    expect(response.statusCode).toBe(200);
    const { message, expiresAt } = response.json<{ message: string; expiresAt: string }>();
    expect(message).toContain('Rupeedesk');
    expect(message).toContain(user.email);
    expect(message).toContain(`Address: ${account.address}`);
    expect(message).toMatch(/Nonce: [0-9a-f]{32}/);
    const minutes = (new Date(expiresAt).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9);
    expect(minutes).toBeLessThanOrEqual(10);
    const again = await challenge(user, { network: 'ERC20', address: account.address });
    expect(again.json<{ message: string }>().message).not.toBe(message);
  });

  it('adds an Ethereum wallet signed with personal_sign, lists it, e-mails the owner and lets the owner remove it', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const account = privateKeyToAccount(generatePrivateKey());
    const walletId = await addEthereumWallet(harness, user, account);
    const list = await call(harness.app, { url: '/api/wallets', cookie: user.cookie });
    expect(list.json<{ items: unknown[] }>().items).toEqual([{ id: walletId, network: 'ERC20', address: account.address, verifiedAt: expect.any(String) }]);
    const mail = await harness.database.handle.db.execute<{ subject: string; text_body: string }>(
      sql`select subject, text_body from mail_outbox where to_address = ${user.email} and subject like '%wallet%'`,
    );
    expect(mail.rows).toHaveLength(1);
    expect(mail.rows[0]?.subject).toBe('Rupeedesk: a wallet was added to your account');
    expect(mail.rows[0]?.text_body).toContain(account.address);

    const stranger = await signUpVerifiedUser(harness.app);
    expect((await call(harness.app, { method: 'DELETE', url: `/api/wallets/${walletId}`, cookie: stranger.cookie })).statusCode).toBe(404);
    expect((await call(harness.app, { method: 'DELETE', url: `/api/wallets/${walletId}`, cookie: user.cookie })).statusCode).toBe(200);
    expect((await call(harness.app, { url: '/api/wallets', cookie: user.cookie })).json<{ items: unknown[] }>().items).toEqual([]);
  });

  it('e-mails a Hindi reader about a new wallet in Hindi (the profile language, decision 055)', async () => {
    const user = await signUpVerifiedUser(harness.app);
    expect((await call(harness.app, { method: 'PUT', url: '/api/me/language', cookie: user.cookie, body: { language: 'hi' } })).statusCode).toBe(200);
    const tron = tronAccount();
    const issued = await challenge(user, { network: 'TRC20', address: tron.address });
    const signature = await tron.signMessageV2(issued.json<{ message: string }>().message);
    expect((await register(user, { network: 'TRC20', address: tron.address, signature })).statusCode).toBe(201);
    const mail = await harness.database.handle.db.execute<{ subject: string; text_body: string }>(
      sql`select subject, text_body from mail_outbox where to_address = ${user.email} and text_body like ${`%${tron.address}%`}`,
    );
    expect(mail.rows).toHaveLength(1);
    expect(mail.rows[0]?.subject).toBe('Rupeedesk: आपके खाते में एक वॉलेट जोड़ा गया');
  });

  it('adds a TRON wallet signed with signMessageV2', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const tron = tronAccount();
    const issued = await challenge(user, { network: 'TRC20', address: tron.address });
    expect(issued.statusCode).toBe(200);
    const signature = await tron.signMessageV2(issued.json<{ message: string }>().message);
    const response = await register(user, { network: 'TRC20', address: tron.address, signature });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ wallet: { network: 'TRC20', address: tron.address }, message: WALLET_MESSAGES.added });
  });

  it('refuses a signature by another key, of other text, malformed, or without a challenge, with a 4xx and no wallet', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const account = privateKeyToAccount(generatePrivateKey());
    const otherKey = privateKeyToAccount(generatePrivateKey());
    const noChallenge = await register(user, { network: 'ERC20', address: account.address, signature: await account.signMessage({ message: 'anything' }) });
    expect(noChallenge.statusCode).toBe(400);
    expect(noChallenge.json().error.message).toBe(WALLET_MESSAGES.noChallenge);

    const { message } = (await challenge(user, { network: 'ERC20', address: account.address })).json<{ message: string }>();
    const cases: [string, string][] = [
      [await otherKey.signMessage({ message }), WALLET_MESSAGES.signatureMismatch],
      [await account.signMessage({ message: `${message} ` }), WALLET_MESSAGES.signatureMismatch],
      [await account.signMessage({ message: keccak256('0x01') }), WALLET_MESSAGES.signatureMismatch],
      ['0x1234', WALLET_MESSAGES.signatureShape],
      [`0x${'ff'.repeat(65)}`, WALLET_MESSAGES.signatureMismatch],
    ];
    for (const [signature, expected] of cases) {
      const response = await register(user, { network: 'ERC20', address: account.address, signature });
      expect(response.statusCode, signature).toBe(400);
      expect(response.json().error.message).toBe(expected);
    }
    // A TRON signature of the same text does not prove the Ethereum address, nor the reverse.
    const tronStyle = await account.sign({ hash: `0x${Buffer.from(tronMessageHash(message)).toString('hex')}` as Hex });
    expect((await register(user, { network: 'ERC20', address: account.address, signature: tronStyle })).statusCode).toBe(400);
    expect((await call(harness.app, { url: '/api/wallets', cookie: user.cookie })).json<{ items: unknown[] }>().items).toEqual([]);
  });

  it('refuses bad addresses with clear messages', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const cases: [unknown, string][] = [
      [{ network: 'ERC20', address: '0x1234' }, WALLET_MESSAGES.erc20Address],
      [{ network: 'TRC20', address: '0x52908400098527886E0F7030069857D2E4169EE7' }, WALLET_MESSAGES.trc20Address],
      [
        { network: 'ERC20', address: '0x52908400098527886e0F7030069857D2E4169EE7' },
        'This ERC20 address has mixed case but its checksum does not match; check it for typos.',
      ],
      [
        { network: 'TRC20', address: 'TJYeasTPa6gpEEfYqNWcuJUMUb9qvQJp2v' },
        'This TRC20 address is not a valid TRON address (its checksum does not match); check it for typos.',
      ],
      [{ network: 'ERC20', address: '' }, WALLET_MESSAGES.addressRequired],
    ];
    for (const [body, expected] of cases) {
      const response = await challenge(user, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.message).toBe(expected);
    }
  });

  it('lets an address proved by one customer never be added by another', async () => {
    const first = await signUpVerifiedUser(harness.app);
    const second = await signUpVerifiedUser(harness.app);
    const account = privateKeyToAccount(generatePrivateKey());
    const pending = (await challenge(second, { network: 'ERC20', address: account.address })).json<{ message: string }>().message;
    await addEthereumWallet(harness, first, account);
    const refusedChallenge = await challenge(second, { network: 'ERC20', address: account.address.toLowerCase() });
    expect(refusedChallenge.statusCode).toBe(409);
    expect(refusedChallenge.json().error.message).toBe(WALLET_MESSAGES.takenByOther);
    // Even with a challenge issued before the first customer proved it.
    const refused = await register(second, { network: 'ERC20', address: account.address, signature: await account.signMessage({ message: pending }) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(WALLET_MESSAGES.takenByOther);
  });

  it('needs a PIN-verified session and is not rate-limited for a few challenges', async () => {
    const withoutPin = await signUpUser(harness.app);
    expect((await call(harness.app, { url: '/api/wallets', cookie: withoutPin.cookie })).statusCode).toBe(403);
    expect((await call(harness.app, { url: '/api/wallets' })).statusCode).toBe(401);
    const user = await signUpVerifiedUser(harness.app);
    const address = privateKeyToAccount(generatePrivateKey()).address;
    for (let attempt = 0; attempt < 8; attempt += 1) expect((await challenge(user, { network: 'ERC20', address })).statusCode).toBe(200);
    const kept = await harness.database.handle.db.execute<{ count: number }>(
      sql`select count(*)::int as count from wallet_challenges where user_id = ${user.id}`,
    );
    expect(kept.rows[0]?.count).toBe(5);
  });
});
