import { keccak_256 } from '@noble/hashes/sha3';
import { recoverAddress, recoverMessageAddress, type Hex } from 'viem';
import { tronAddressFromAccountId } from '../settings/addresses.ts';

const SIGNATURE_PATTERN = /^0x[0-9a-fA-F]{130}$/;
/** TIP-191, what TronWeb's signMessageV2 and TronLink sign. */
const TRON_MESSAGE_PREFIX = '\x19TRON Signed Message:\n';

/** The signature as 0x plus 65 bytes of hex (r, s, v); wallets differ on the 0x, so it is added when missing. */
export function normalizeSignature(signature: string): Hex | undefined {
  const withPrefix = signature.startsWith('0x') ? signature : `0x${signature}`;
  return SIGNATURE_PATTERN.test(withPrefix) ? (withPrefix as Hex) : undefined;
}

/** The Ethereum address (lower case) whose key signed `message` with EIP-191 personal_sign; undefined when the signature is not valid. */
export async function ethereumSignerOf(message: string, signature: Hex): Promise<string | undefined> {
  try {
    return (await recoverMessageAddress({ message, signature })).toLowerCase();
  } catch {
    return undefined;
  }
}

/** keccak-256 of the TIP-191 envelope: prefix, the message's length in bytes as decimal text, the message. */
export function tronMessageHash(message: string): Uint8Array {
  const body = new TextEncoder().encode(message);
  const envelope = new TextEncoder().encode(`${TRON_MESSAGE_PREFIX}${body.length}`);
  const bytes = new Uint8Array(envelope.length + body.length);
  bytes.set(envelope);
  bytes.set(body, envelope.length);
  return keccak_256(bytes);
}

/** The TRON address whose key signed `message` with signMessageV2; undefined when the signature is not valid. */
export async function tronSignerOf(message: string, signature: Hex): Promise<string | undefined> {
  try {
    const ethereumStyle = await recoverAddress({ hash: `0x${Buffer.from(tronMessageHash(message)).toString('hex')}`, signature });
    return tronAddressFromAccountId(Buffer.from(ethereumStyle.slice(2), 'hex'));
  } catch {
    return undefined;
  }
}
