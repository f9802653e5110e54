import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { LIVENESS_CHALLENGE_MINUTES, LIVENESS_STEPS, type LivenessChallenge, type LivenessStep } from '#shared/contracts/kyc-documents';
import type { MasterKey } from './encryption.ts';

/*
 * The live selfie's challenge (decision 052): the server chooses the steps at random and signs them,
 * with the customer and an expiry, by a key derived from the KYC master key. The selfie's report must
 * carry the token of the steps it names, so a report cannot claim an easier challenge than the one asked.
 * Issuing stores nothing: the signature is the record until the report. Each token carries a random id,
 * and the selfie accepted with it stores that id under a unique index, so a token serves one selfie only.
 */

/** Two different steps: a blink and a turn, or the two turns. */
const STEPS_PER_CHALLENGE = 2;

function signingKey(masterKey: MasterKey): Buffer {
  return createHmac('sha256', masterKey.key).update('rupeedesk kyc liveness challenge v1').digest();
}

function signature(masterKey: MasterKey, payload: string): Buffer {
  return createHmac('sha256', signingKey(masterKey)).update(payload).digest();
}

/** `fixed` is the KYC_LIVENESS_CHALLENGE setting (tests whose camera plays a clip); unset, the steps are random. */
export function chooseChallenge(fixed: readonly LivenessStep[] | undefined): LivenessStep[] {
  if (fixed !== undefined) return [...fixed];
  const left = [...LIVENESS_STEPS];
  const chosen: LivenessStep[] = [];
  while (chosen.length < STEPS_PER_CHALLENGE) chosen.push(left.splice(randomInt(left.length), 1)[0]!);
  return chosen;
}

export function issueChallenge(masterKey: MasterKey, userId: string, challenge: LivenessStep[], now: Date): LivenessChallenge {
  const expiresAt = new Date(now.getTime() + LIVENESS_CHALLENGE_MINUTES * 60_000);
  const payload = Buffer.from(JSON.stringify({ id: randomUUID(), userId, challenge, expiresAt: expiresAt.getTime() })).toString('base64url');
  return { challenge, token: `${payload}.${signature(masterKey, payload).toString('base64url')}`, expiresAt: expiresAt.toISOString() };
}

/**
 * The token's id when it was issued by this server to this customer for exactly these steps and has not
 * expired; undefined otherwise. Whether it was used already is the image table's unique index's to say.
 */
export function verifiedChallengeId(masterKey: MasterKey, token: string, userId: string, challenge: readonly LivenessStep[], now: Date): string | undefined {
  const [payload, signed, extra] = token.split('.');
  if (payload === undefined || signed === undefined || extra !== undefined) return undefined;
  const expected = signature(masterKey, payload);
  const given = Buffer.from(signed, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let claims: { id?: unknown; userId?: unknown; challenge?: unknown; expiresAt?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return undefined;
  }
  const matches =
    typeof claims.id === 'string' &&
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(claims.id) &&
    claims.userId === userId &&
    typeof claims.expiresAt === 'number' &&
    claims.expiresAt > now.getTime() &&
    JSON.stringify(claims.challenge) === JSON.stringify(challenge);
  return matches ? (claims.id as string) : undefined;
}
