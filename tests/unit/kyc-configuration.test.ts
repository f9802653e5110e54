import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/env.ts';
import { configurationProblemsOf } from '../fixtures/configuration.ts';

describe('KYC_PROVIDER', () => {
  it('is off by default: an admin verifies each PAN, and KYC_* alone change nothing', () => {
    expect(loadConfig({}).kyc).toBeUndefined();
    expect(loadConfig({ KYC_CLIENT_ID: 'CF-client-1', KYC_CLIENT_SECRET: 'cf-secret-1' }).kyc).toBeUndefined();
  });

  it('cashfree is refused without its credentials, naming each missing one, rather than quietly leaving PANs to an admin', () => {
    expect(configurationProblemsOf({ KYC_PROVIDER: 'cashfree', KYC_CLIENT_ID: 'CF-client-1' })).toEqual([
      "Invalid configuration: KYC_PROVIDER=cashfree needs KYC_CLIENT_SECRET (from the Cashfree Merchant Dashboard: the Verification Suite's API keys)",
    ]);
  });

  it('cashfree with its credentials takes KYC_API_URL without a trailing slash', () => {
    expect(
      loadConfig({ KYC_PROVIDER: 'cashfree', KYC_CLIENT_ID: 'CF-client-1', KYC_CLIENT_SECRET: 'cf-secret-1', KYC_API_URL: 'http://127.0.0.1:9998/' }).kyc,
    ).toEqual({
      provider: 'cashfree',
      apiUrl: 'http://127.0.0.1:9998',
      clientId: 'CF-client-1',
      clientSecret: 'cf-secret-1',
    });
  });
});

describe('KYC_LIVENESS_CHALLENGE', () => {
  it('is unset by default (random steps), fixes the steps when given, and refuses anything but the three steps', () => {
    expect(loadConfig({}).kycLivenessChallenge).toBeUndefined();
    expect(loadConfig({ KYC_LIVENESS_CHALLENGE: 'turn_left,blink' }).kycLivenessChallenge).toEqual(['turn_left', 'blink']);
    for (const value of ['smile', 'turn_left,', 'blink;turn_left']) {
      expect(configurationProblemsOf({ KYC_LIVENESS_CHALLENGE: value })).toEqual([
        `Invalid configuration: KYC_LIVENESS_CHALLENGE must be unset (random) or steps among blink, turn_left and turn_right separated by commas (got "${value}")`,
      ]);
    }
  });

  it('is refused at start-up in production, where a fixed challenge would let a recorded clip pass the live selfie', () => {
    expect(configurationProblemsOf({ NODE_ENV: 'production', KYC_LIVENESS_CHALLENGE: 'turn_left' })).toEqual([
      'Invalid configuration: KYC_LIVENESS_CHALLENGE must be unset when NODE_ENV=production (it fixes the live selfie’s steps for tests only; see docs/decisions/052)',
    ]);
    expect(loadConfig({ NODE_ENV: 'production' }).kycLivenessChallenge).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'test', KYC_LIVENESS_CHALLENGE: 'turn_left' }).kycLivenessChallenge).toEqual(['turn_left']);
  });
});
