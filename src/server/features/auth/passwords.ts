import os from 'node:os';
import { Argon2WorkerGone, Argon2Workers } from './argon2-workers.ts';

// OWASP's argon2id recommendation: 19 MiB of memory, 2 iterations, 1 lane.
// Algorithm 2 is Argon2id in @node-rs/argon2's (const) enum.
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** One argon2 thread per CPU, of lower priority (argon2-workers.ts); further checks wait their turn there. */
const argon2 = new Argon2Workers(Math.max(1, os.availableParallelism()));

export function hashSecret(secret: string): Promise<string> {
  return argon2.hash(secret, ARGON2_OPTIONS);
}

export async function verifySecret(storedHash: string, secret: string): Promise<boolean> {
  try {
    return await argon2.verify(storedHash, secret);
  } catch (error) {
    // A stored hash argon2 cannot read matches nothing; a dead thread is our fault, not a wrong secret.
    if (error instanceof Argon2WorkerGone) throw error;
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
