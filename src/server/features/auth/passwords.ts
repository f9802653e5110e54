import { hash, verify } from '@node-rs/argon2';
import { concurrencyLimit } from '../../concurrency-limit.ts';
import { ARGON2_CONCURRENCY } from '../../thread-pool.ts';

// OWASP's argon2id recommendation: 19 MiB of memory, 2 iterations, 1 lane.
// Algorithm 2 is Argon2id in @node-rs/argon2's (const) enum.
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * At most one argon2 computation per CPU at a time; the rest wait here, in order, rather than in
 * libuv's thread pool, where they would hold up file reads and take CPU from the event loop.
 */
const withArgon2Slot = concurrencyLimit(ARGON2_CONCURRENCY);

export function hashSecret(secret: string): Promise<string> {
  return withArgon2Slot(() => hash(secret, ARGON2_OPTIONS));
}

export async function verifySecret(storedHash: string, secret: string): Promise<boolean> {
  try {
    return await withArgon2Slot(() => verify(storedHash, secret));
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Spends the same time as a real check, so an unknown e-mail cannot be told apart by timing. */
export async function verifyAgainstDummy(secret: string): Promise<false> {
  dummyHash ??= hashSecret('dummy-password-for-timing');
  await verifySecret(await dummyHash, secret);
  return false;
}
