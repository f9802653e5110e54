import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import { HDKey } from '@scure/bip32';
import { DEPOSIT_ACCOUNT_PATHS } from '#shared/contracts/deposit-keys';
import type { DepositNetwork } from '#shared/contracts/enums';
import { tronAddressFromAccountId } from '../settings/addresses.ts';

/*
 * Watch-only deposit addresses (docs/decisions/035). The operator gives, per network, the account-level
 * extended public key of BIP-44 (m/44'/60'/0' for Ethereum, m/44'/195'/0' for TRON); the customer with
 * index i gets the external address .../0/i, derived by public (non-hardened) derivation only. The private
 * keys stay in the operator's custody: an extended public key together with any one child private key
 * reveals the parent private key, so nothing private is ever accepted here.
 */

/** Non-hardened child indexes are 0 to 2^31 - 1; beyond that derivation would need the private key. */
export const MAX_ADDRESS_INDEX = 0x7fff_ffff;

const ACCOUNT_DEPTH = 3;
const HARDENED_OFFSET = 0x8000_0000;
/** BIP-44's external chain: addresses handed out to receive payments. */
const EXTERNAL_CHAIN = 0;
const EXTENDED_KEY_MAX_LENGTH = 120;

/**
 * Why a configured value cannot be used as the account-level extended public key of the network, or
 * undefined when it can. The words never repeat the value: a pasted private key must not reach a log.
 */
export function accountExtendedPublicKeyProblem(network: DepositNetwork, value: string): string | undefined {
  const accountPath = DEPOSIT_ACCOUNT_PATHS[network];
  const wanted = `give the account-level extended public key (xpub) of ${accountPath} instead; private keys stay in hardware or MPC custody, never on this server`;
  if (/\s/.test(value.trim())) return `looks like a mnemonic (seed phrase), which must never be given to this server: ${wanted}`;
  if (/^[a-z]prv/i.test(value)) return `is an extended private key, which must never be given to this server: ${wanted}`;
  if (/^(0x)?[0-9a-f]{64}$/i.test(value)) return `looks like a hexadecimal private key, which must never be given to this server: ${wanted}`;
  if (value.length > EXTENDED_KEY_MAX_LENGTH || !value.startsWith('xpub')) return `must be an extended public key starting with xpub: ${wanted}`;
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(value);
  } catch {
    return `is not a valid extended public key (its checksum or encoding is wrong): ${wanted}`;
  }
  if (key.privateKey) return `is an extended private key, which must never be given to this server: ${wanted}`;
  if (key.depth !== ACCOUNT_DEPTH || key.index < HARDENED_OFFSET) {
    return `must be the account-level key of ${accountPath} (depth 3, hardened account index); this key is at depth ${key.depth}`;
  }
  return undefined;
}

/** The external-chain keys (.../0) already parsed, by account key: parsing and one derivation step cost more than the rest. */
const externalChainKeys = new Map<string, HDKey>();
const EXTERNAL_CHAIN_CACHE_LIMIT = 16;

function externalChainOf(accountExtendedPublicKey: string): HDKey {
  const cached = externalChainKeys.get(accountExtendedPublicKey);
  if (cached) return cached;
  const account = HDKey.fromExtendedKey(accountExtendedPublicKey);
  if (account.privateKey || account.depth !== ACCOUNT_DEPTH) throw new Error('deposit addresses are derived from an account-level extended public key only');
  const externalChain = account.deriveChild(EXTERNAL_CHAIN);
  if (externalChainKeys.size >= EXTERNAL_CHAIN_CACHE_LIMIT) externalChainKeys.clear();
  externalChainKeys.set(accountExtendedPublicKey, externalChain);
  return externalChain;
}

/** The 20-byte account id both networks use: the last 20 bytes of keccak-256 of the uncompressed public key without its 0x04 prefix. */
function accountIdOf(compressedPublicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.ProjectivePoint.fromHex(compressedPublicKey).toRawBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(12);
}

/** The address as stored and compared: lower-case 0x hex on Ethereum, base58check with version byte 0x41 on TRON. */
export function addressOfAccountId(network: DepositNetwork, accountId: Uint8Array): string {
  if (accountId.length !== 20) throw new Error(`an account id is 20 bytes, got ${accountId.length}`);
  switch (network) {
    case 'ERC20':
      return `0x${Buffer.from(accountId).toString('hex')}`;
    case 'TRC20':
      return tronAddressFromAccountId(accountId);
  }
}

/** The deposit address with this index: .../0/index below the account key. */
export function deriveDepositAddress(network: DepositNetwork, accountExtendedPublicKey: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index > MAX_ADDRESS_INDEX) throw new Error(`a deposit address index is 0 to ${MAX_ADDRESS_INDEX}, got ${index}`);
  const child = externalChainOf(accountExtendedPublicKey).deriveChild(index);
  if (!child.publicKey) throw new Error('derivation gave no public key');
  return addressOfAccountId(network, accountIdOf(child.publicKey));
}
