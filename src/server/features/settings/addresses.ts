import { createHash } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3';

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const TRON_ADDRESS_VERSION = 0x41;
const TRON_ADDRESS_BYTES = 25;

function sha256(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

/** Decodes base58 into exactly `length` bytes, or undefined when the text is not base58 or has another length. */
function decodeBase58(text: string, length: number): Buffer | undefined {
  let value = 0n;
  for (const character of text) {
    const digit = BASE58_ALPHABET.indexOf(character);
    if (digit < 0) return undefined;
    value = value * 58n + BigInt(digit);
  }
  let leadingZeros = 0;
  while (leadingZeros < text.length && text[leadingZeros] === '1') leadingZeros += 1;
  const hex = value === 0n ? '' : value.toString(16);
  const body = Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex');
  if (leadingZeros + body.length !== length) return undefined;
  return Buffer.concat([Buffer.alloc(leadingZeros), body]);
}

export function encodeBase58(bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let text = '';
  while (value > 0n) {
    text = BASE58_ALPHABET[Number(value % 58n)] + text;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

/**
 * A TRON address: base58check of version byte 0x41 plus a 20-byte account id,
 * whose last 4 bytes are the first 4 of SHA-256(SHA-256(version + id)).
 * A typo almost always breaks the checksum, so deposits cannot go to a mistyped address.
 */
export function isValidTronAddress(address: string): boolean {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return false;
  const bytes = decodeBase58(address, TRON_ADDRESS_BYTES);
  if (!bytes || bytes[0] !== TRON_ADDRESS_VERSION) return false;
  const payload = bytes.subarray(0, 21);
  const checksum = sha256(sha256(payload)).subarray(0, 4);
  return checksum.equals(bytes.subarray(21));
}

/** EIP-55: a hex letter is upper case exactly when the matching nibble of keccak-256(lower-case address) is 8 or more. */
export function toChecksumAddress(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(lower))).toString('hex');
  let result = '0x';
  for (let index = 0; index < lower.length; index += 1) {
    const character = lower[index] as string;
    result += parseInt(hash[index] as string, 16) >= 8 ? character.toUpperCase() : character;
  }
  return result;
}

/**
 * An ERC20 (Ethereum) address: 0x plus 40 hex digits. All lower or all upper
 * case carries no checksum; mixed case must match EIP-55 exactly.
 */
export function isValidErc20Address(address: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
  const digits = address.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return true;
  return toChecksumAddress(address) === address;
}

/** The base58check TRON address of a 20-byte account id (as in event logs and Ethereum-style signatures). */
export function tronAddressFromAccountId(accountId: Uint8Array): string {
  if (accountId.length !== 20) throw new Error(`a TRON account id is 20 bytes, got ${accountId.length}`);
  const payload = Buffer.concat([Buffer.from([TRON_ADDRESS_VERSION]), accountId]);
  return encodeBase58(Buffer.concat([payload, sha256(sha256(payload)).subarray(0, 4)]));
}

/** The 20-byte account id of a valid TRON address; undefined when the address is not valid. */
export function tronAccountIdOf(address: string): Buffer | undefined {
  if (!isValidTronAddress(address)) return undefined;
  return decodeBase58(address, TRON_ADDRESS_BYTES)?.subarray(1, 21);
}
