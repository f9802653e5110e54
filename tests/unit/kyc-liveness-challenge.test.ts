import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LIVENESS_CHALLENGE_MINUTES, documentSimilarityVerdict } from '#shared/contracts/kyc-documents';
import { parseMasterKey } from '../../src/server/features/kyc/documents/encryption.ts';
import { chooseChallenge, verifiedChallengeId, issueChallenge } from '../../src/server/features/kyc/documents/liveness-challenge.ts';

// The live selfie's challenge (decision 052): random steps signed for one customer until an expiry.
const key = parseMasterKey(randomBytes(32).toString('base64'));
const otherKey = parseMasterKey(randomBytes(32).toString('base64'));
const now = new Date('2026-11-28T00:00:00Z');

describe('the liveness challenge', () => {
  it('chooses two different steps at random, or the fixed setting', () => {
    const seen = new Set<string>();
    for (let round = 0; round < 200; round += 1) {
      const steps = chooseChallenge(undefined);
      expect(steps).toHaveLength(2);
      expect(new Set(steps).size).toBe(2);
      seen.add(steps.join(','));
    }
    expect(seen.size).toBe(6);
    expect(chooseChallenge(['turn_left'])).toEqual(['turn_left']);
  });

  it('accepts its own token for the same customer and steps until it expires, and nothing else', () => {
    const issued = issueChallenge(key, 'user-1', ['blink', 'turn_right'], now);
    expect(issued.expiresAt).toBe(new Date(now.getTime() + LIVENESS_CHALLENGE_MINUTES * 60_000).toISOString());
    const id = verifiedChallengeId(key, issued.token, 'user-1', ['blink', 'turn_right'], now);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    // Each token has its own id, even for the same customer, steps and moment: the id is what makes a token single-use.
    expect(verifiedChallengeId(key, issueChallenge(key, 'user-1', ['blink', 'turn_right'], now).token, 'user-1', ['blink', 'turn_right'], now)).not.toBe(id);
    expect(verifiedChallengeId(key, issued.token, 'user-2', ['blink', 'turn_right'], now)).toBeUndefined();
    expect(verifiedChallengeId(key, issued.token, 'user-1', ['blink'], now)).toBeUndefined();
    expect(verifiedChallengeId(key, issued.token, 'user-1', ['turn_right', 'blink'], now)).toBeUndefined();
    expect(verifiedChallengeId(otherKey, issued.token, 'user-1', ['blink', 'turn_right'], now)).toBeUndefined();
    const late = new Date(now.getTime() + LIVENESS_CHALLENGE_MINUTES * 60_000);
    expect(verifiedChallengeId(key, issued.token, 'user-1', ['blink', 'turn_right'], late)).toBeUndefined();
    const [payload, signed] = issued.token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const widened = Buffer.from(JSON.stringify({ ...claims, challenge: ['blink'] })).toString('base64url');
    expect(verifiedChallengeId(key, `${widened}.${signed}`, 'user-1', ['blink'], now)).toBeUndefined();
    for (const broken of ['', 'a', 'a.b.c', `${payload}.`, `.${signed}`]) expect(verifiedChallengeId(key, broken, 'user-1', ['blink'], now)).toBeUndefined();
  });
});

describe('the document similarity in plain words', () => {
  it('follows the library’s 0.5 for one person, with a band of doubt below it', () => {
    expect(documentSimilarityVerdict(null)).toBe('not_compared');
    expect(documentSimilarityVerdict(0.72)).toBe('same_person_likely');
    expect(documentSimilarityVerdict(0.5)).toBe('same_person_likely');
    expect(documentSimilarityVerdict(0.45)).toBe('unsure');
    expect(documentSimilarityVerdict(0.39)).toBe('different_person_likely');
  });
});
