import { describe, expect, it } from 'vitest';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { loadConfig } from '../../src/server/env.ts';
import {
  accountExtendedPublicKeyProblem,
  addressOfAccountId,
  deriveDepositAddress,
  MAX_ADDRESS_INDEX,
} from '../../src/server/features/deposit-addresses/derivation.ts';
import { isValidTronAddress, tronAddressFromAccountId } from '../../src/server/features/settings/addresses.ts';
import { configurationProblemsOf as problemsOf } from '../fixtures/configuration.ts';
import { keyAtPath, TEST_DEPOSIT_XPUBS, TEST_MNEMONIC } from '../fixtures/deposit-keys.ts';

const INDEXES = [0, 1, 2, 7, 1000, MAX_ADDRESS_INDEX];

describe('deposit address derivation (watch-only, from an account-level extended public key)', () => {
  it('the test keys are the account keys of the test mnemonic', () => {
    expect(keyAtPath(TEST_MNEMONIC, "m/44'/60'/0'").publicExtendedKey).toBe(TEST_DEPOSIT_XPUBS.ERC20);
    expect(keyAtPath(TEST_MNEMONIC, "m/44'/195'/0'").publicExtendedKey).toBe(TEST_DEPOSIT_XPUBS.TRC20);
  });

  it('ERC20: equals viem’s mnemonicToAccount at every address index (private derivation, another code path)', () => {
    for (const index of INDEXES) {
      expect(deriveDepositAddress('ERC20', TEST_DEPOSIT_XPUBS.ERC20, index)).toBe(
        mnemonicToAccount(TEST_MNEMONIC, { addressIndex: index }).address.toLowerCase(),
      );
    }
  });

  it('ERC20: matches the published addresses of the test mnemonic (Hardhat’s accounts #0 and #1)', () => {
    expect(deriveDepositAddress('ERC20', TEST_DEPOSIT_XPUBS.ERC20, 0)).toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
    expect(deriveDepositAddress('ERC20', TEST_DEPOSIT_XPUBS.ERC20, 1)).toBe('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
  });

  it('TRC20: equals the private key of the full TRON path (private derivation) through viem’s privateKeyToAccount, turned into base58check by the app’s separate encoder', () => {
    for (const index of INDEXES) {
      const account = privateKeyToAccount(`0x${Buffer.from(keyAtPath(TEST_MNEMONIC, `m/44'/195'/0'/0/${index}`).privateKey as Uint8Array).toString('hex')}`);
      const expected = tronAddressFromAccountId(Buffer.from(account.address.slice(2), 'hex'));
      const derived = deriveDepositAddress('TRC20', TEST_DEPOSIT_XPUBS.TRC20, index);
      expect(derived).toBe(expected);
      expect(isValidTronAddress(derived)).toBe(true);
    }
  });

  it('TRC20: matches a published vector of an independent generator (hdAddressGenerator’s TRX test, its xpub at m/44’/195’/0’/0 included)', () => {
    const mnemonic = 'brand improve symbol strike say focus ginger imitate ginger appear wheel brand swear relief zero';
    const account = keyAtPath(mnemonic, "m/44'/195'/0'");
    expect(account.deriveChild(0).publicExtendedKey).toBe(
      'xpub6EHd7URQHYMYuiHMmWEEtiUHPUJ6WvfSFuRTodiWLWWE3Ep73ZT9nLVAnGfxa2CU4cSLWbWiqxWowswMpg4WaxJrH6pxYNTm56JxXNcY2J5',
    );
    expect(deriveDepositAddress('TRC20', account.publicExtendedKey, 0)).toBe('TKP2mZrYNKdrXJi38vxQsAykfo1YoWjxpR');
    expect(deriveDepositAddress('TRC20', account.publicExtendedKey, 1)).toBe('TEj3nZiTniYrQQPDmjMuTF58cgJ2x2AT3P');
  });

  it('TRC20: base58check with version 0x41 gives the published form of the USDT contract', () => {
    expect(addressOfAccountId('TRC20', Buffer.from('a614f803b6fd780986a42c78ec9c7f77e6ded13c', 'hex'))).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
  });

  it('the same index under the two networks’ keys gives unrelated accounts; another index another address', () => {
    const erc20 = deriveDepositAddress('ERC20', TEST_DEPOSIT_XPUBS.ERC20, 5);
    const trc20 = deriveDepositAddress('TRC20', TEST_DEPOSIT_XPUBS.TRC20, 5);
    expect(tronAddressFromAccountId(Buffer.from(erc20.slice(2), 'hex'))).not.toBe(trc20);
    expect(deriveDepositAddress('ERC20', TEST_DEPOSIT_XPUBS.ERC20, 6)).not.toBe(erc20);
  });

  it('refuses an index outside 0 to 2^31 - 1 (hardened indexes need the private key)', () => {
    expect(() => deriveDepositAddress('ERC20', TEST_DEPOSIT_XPUBS.ERC20, MAX_ADDRESS_INDEX + 1)).toThrow();
    expect(() => deriveDepositAddress('ERC20', TEST_DEPOSIT_XPUBS.ERC20, -1)).toThrow();
    expect(() => deriveDepositAddress('ERC20', TEST_DEPOSIT_XPUBS.ERC20, 1.5)).toThrow();
  });
});

describe('DEPOSIT_XPUB_ERC20 and DEPOSIT_XPUB_TRC20', () => {
  const ethereumAccount = keyAtPath(TEST_MNEMONIC, "m/44'/60'/0'");
  const privateKeyHex = Buffer.from(keyAtPath(TEST_MNEMONIC, "m/44'/60'/0'/0/0").privateKey as Uint8Array).toString('hex');
  const refused: [string, string, RegExp][] = [
    ['the account xprv', ethereumAccount.privateExtendedKey, /is an extended private key/],
    ['a testnet tprv', `tprv${ethereumAccount.privateExtendedKey.slice(4)}`, /is an extended private key/],
    ['the mnemonic', TEST_MNEMONIC, /looks like a mnemonic/],
    ['a child’s hex private key', privateKeyHex, /hexadecimal private key/],
    ['a child’s hex private key with 0x', `0x${privateKeyHex}`, /hexadecimal private key/],
    ['the master xpub (depth 0)', keyAtPath(TEST_MNEMONIC, 'm').publicExtendedKey, /depth 3.*depth 0/],
    ['the change-level xpub (depth 4)', keyAtPath(TEST_MNEMONIC, "m/44'/60'/0'/0").publicExtendedKey, /depth 3.*depth 4/],
    ['an address-level xpub (depth 5)', keyAtPath(TEST_MNEMONIC, "m/44'/60'/0'/0/0").publicExtendedKey, /depth 3.*depth 5/],
    ['a depth-3 key with an unhardened index', keyAtPath(TEST_MNEMONIC, "m/44'/60'/0").publicExtendedKey, /hardened account index/],
    [
      'an xpub with a broken checksum',
      `${TEST_DEPOSIT_XPUBS.ERC20.slice(0, -1)}${TEST_DEPOSIT_XPUBS.ERC20.endsWith('P') ? 'Q' : 'P'}`,
      /not a valid extended public key/,
    ],
    ['an address', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', /must be an extended public key starting with xpub/],
  ];

  for (const [name, value, reason] of refused) {
    it(`refuses ${name} at start, in one line naming the variable, without repeating the value`, () => {
      for (const variable of ['DEPOSIT_XPUB_ERC20', 'DEPOSIT_XPUB_TRC20'] as const) {
        const problems = problemsOf({ [variable]: value });
        expect(problems).toHaveLength(1);
        const [problem] = problems as [string];
        expect(problem.startsWith(`Invalid configuration: ${variable} `)).toBe(true);
        expect(problem).toMatch(reason);
        expect(problem).not.toContain('\n');
        for (const piece of value.split(/\s+/).filter((word) => word.length >= 8)) expect(problem).not.toContain(piece.slice(4, 20));
        expect(problem).not.toContain(value);
      }
    });
  }

  it('names the account path each network needs', () => {
    expect(accountExtendedPublicKeyProblem('ERC20', TEST_MNEMONIC)).toContain("m/44'/60'/0'");
    expect(accountExtendedPublicKeyProblem('TRC20', TEST_MNEMONIC)).toContain("m/44'/195'/0'");
  });

  it('accepts account-level xpubs, and without them each network keeps the shared address', () => {
    expect(loadConfig({}).depositExtendedPublicKeys).toEqual({ ERC20: undefined, TRC20: undefined });
    expect(loadConfig({ DEPOSIT_XPUB_ERC20: ` ${TEST_DEPOSIT_XPUBS.ERC20} `, DEPOSIT_XPUB_TRC20: TEST_DEPOSIT_XPUBS.TRC20 }).depositExtendedPublicKeys).toEqual(
      TEST_DEPOSIT_XPUBS,
    );
    expect(loadConfig({ DEPOSIT_XPUB_TRC20: TEST_DEPOSIT_XPUBS.TRC20 }).depositExtendedPublicKeys).toEqual({
      ERC20: undefined,
      TRC20: TEST_DEPOSIT_XPUBS.TRC20,
    });
  });

  it('refuses one key given for both networks', () => {
    expect(problemsOf({ DEPOSIT_XPUB_ERC20: TEST_DEPOSIT_XPUBS.ERC20, DEPOSIT_XPUB_TRC20: TEST_DEPOSIT_XPUBS.ERC20 })).toEqual([
      "Invalid configuration: DEPOSIT_XPUB_TRC20 is the same key as DEPOSIT_XPUB_ERC20; TRON's account is m/44'/195'/0', Ethereum's m/44'/60'/0'",
    ]);
  });
});
