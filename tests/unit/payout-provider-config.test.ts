import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RAZORPAYX_API_URL, loadConfig } from '../../src/server/env.ts';
import { createRazorpayXClient } from '../../src/server/features/payouts/razorpayx-client.ts';
import { configurationProblemsOf } from '../fixtures/configuration.ts';

const CREDENTIALS = {
  RAZORPAYX_KEY_ID: 'rzp_test_Key0001',
  RAZORPAYX_KEY_SECRET: 'secret-of-the-key',
  RAZORPAYX_ACCOUNT_NUMBER: '7878780080316316',
  RAZORPAYX_WEBHOOK_SECRET: 'webhook-secret-01',
};

describe('PAYOUT_PROVIDER', () => {
  it('is off by default: bank files only, and RAZORPAYX_* alone change nothing', () => {
    expect(loadConfig({}).payoutProvider).toBeUndefined();
    expect(loadConfig(CREDENTIALS).payoutProvider).toBeUndefined();
  });

  it('razorpayx takes the public API unless RAZORPAYX_API_URL points elsewhere', () => {
    expect(loadConfig({ PAYOUT_PROVIDER: 'razorpayx', ...CREDENTIALS }).payoutProvider).toMatchObject({
      provider: 'razorpayx',
      apiUrl: DEFAULT_RAZORPAYX_API_URL,
      accountNumber: '7878780080316316',
      pollSeconds: 5,
    });
    expect(loadConfig({ PAYOUT_PROVIDER: 'razorpayx', ...CREDENTIALS, RAZORPAYX_API_URL: 'http://127.0.0.1:9999/' }).payoutProvider?.apiUrl).toBe(
      'http://127.0.0.1:9999',
    );
  });

  it('is refused without its credentials, naming what is missing, and never repeats a secret', () => {
    expect(configurationProblemsOf({ PAYOUT_PROVIDER: 'razorpayx', RAZORPAYX_KEY_ID: 'rzp_test_Key0001' })).toEqual([
      "Invalid configuration: PAYOUT_PROVIDER=razorpayx needs RAZORPAYX_KEY_SECRET (from the RazorpayX Dashboard: API keys, the business account number, and the webhook's secret)",
      "Invalid configuration: PAYOUT_PROVIDER=razorpayx needs RAZORPAYX_ACCOUNT_NUMBER (from the RazorpayX Dashboard: API keys, the business account number, and the webhook's secret)",
      "Invalid configuration: PAYOUT_PROVIDER=razorpayx needs RAZORPAYX_WEBHOOK_SECRET (from the RazorpayX Dashboard: API keys, the business account number, and the webhook's secret)",
    ]);
    const problems = configurationProblemsOf({ PAYOUT_PROVIDER: 'razorpayx', ...CREDENTIALS, RAZORPAYX_KEY_SECRET: 'short' });
    expect(problems).toEqual(['Invalid configuration: RAZORPAYX_KEY_SECRET must be 8 to 128 printable characters']);
    expect(configurationProblemsOf({ PAYOUT_PROVIDER: 'payu' })[0]).toMatch(/^Invalid configuration: PAYOUT_PROVIDER /);
  });
});

describe('RazorpayX webhook signature', () => {
  const config = loadConfig({ PAYOUT_PROVIDER: 'razorpayx', ...CREDENTIALS }).payoutProvider;
  if (config?.provider !== 'razorpayx') throw new Error('no provider');
  const client = createRazorpayXClient(config);
  const body = Buffer.from('{"event":"payout.processed","payload":{}}');
  const signature = createHmac('sha256', CREDENTIALS.RAZORPAYX_WEBHOOK_SECRET).update(body).digest('hex');

  it('accepts the HMAC-SHA256 of the raw body with the webhook secret, and nothing else', () => {
    expect(client.verifyWebhook(body, { 'x-razorpay-signature': signature })).toBe(true);
    expect(client.verifyWebhook(Buffer.from(`${body.toString()} `), { 'x-razorpay-signature': signature })).toBe(false);
    expect(client.verifyWebhook(body, {})).toBe(false);
    expect(client.verifyWebhook(body, { 'x-razorpay-signature': signature.slice(0, 63) })).toBe(false);
    expect(client.verifyWebhook(body, { 'x-razorpay-signature': createHmac('sha256', CREDENTIALS.RAZORPAYX_KEY_SECRET).update(body).digest('hex') })).toBe(
      false,
    );
  });
});
