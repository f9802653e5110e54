import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CASHFREE_PAYOUTS_API_URL, loadConfig, payeeCheckConfig } from '../../src/server/env.ts';
import { cashfreeBeneficiaryName, createCashfreeClient } from '../../src/server/features/payouts/cashfree-client.ts';
import { configurationProblemsOf } from '../fixtures/configuration.ts';

const CREDENTIALS = {
  CASHFREE_PAYOUTS_CLIENT_ID: 'CF10000000TESTCLIENT',
  CASHFREE_PAYOUTS_CLIENT_SECRET: 'cfsk_ma_test_secret_of_the_client',
};

describe('PAYOUT_PROVIDER=cashfree (decision 062)', () => {
  it('takes the public production API unless CASHFREE_PAYOUTS_API_URL points elsewhere, and CASHFREE_PAYOUTS_* alone change nothing', () => {
    expect(loadConfig(CREDENTIALS).payoutProvider).toBeUndefined();
    expect(loadConfig({ PAYOUT_PROVIDER: 'cashfree', ...CREDENTIALS }).payoutProvider).toEqual({
      provider: 'cashfree',
      apiUrl: DEFAULT_CASHFREE_PAYOUTS_API_URL,
      clientId: CREDENTIALS.CASHFREE_PAYOUTS_CLIENT_ID,
      clientSecret: CREDENTIALS.CASHFREE_PAYOUTS_CLIENT_SECRET,
      pollSeconds: 5,
      stuckMinutes: 30,
    });
    expect(DEFAULT_CASHFREE_PAYOUTS_API_URL).toBe('https://api.cashfree.com');
    const pointed = loadConfig({ PAYOUT_PROVIDER: 'cashfree', ...CREDENTIALS, CASHFREE_PAYOUTS_API_URL: 'http://127.0.0.1:9999/' });
    expect(pointed.payoutProvider?.apiUrl).toBe('http://127.0.0.1:9999');
  });

  it('is refused without its credentials, naming what is missing, and never repeats the secret', () => {
    expect(configurationProblemsOf({ PAYOUT_PROVIDER: 'cashfree' })).toEqual([
      'Invalid configuration: PAYOUT_PROVIDER=cashfree needs CASHFREE_PAYOUTS_CLIENT_ID (from the Cashfree Payouts dashboard: Developers, API keys; see docs/decisions/062)',
      'Invalid configuration: PAYOUT_PROVIDER=cashfree needs CASHFREE_PAYOUTS_CLIENT_SECRET (from the Cashfree Payouts dashboard: Developers, API keys; see docs/decisions/062)',
    ]);
    const problems = configurationProblemsOf({ PAYOUT_PROVIDER: 'cashfree', ...CREDENTIALS, CASHFREE_PAYOUTS_CLIENT_SECRET: 'short' });
    expect(problems).toEqual([
      'Invalid configuration: CASHFREE_PAYOUTS_CLIENT_SECRET must be the Cashfree Payouts client secret (8 to 500 printable characters)',
    ]);
    expect(configurationProblemsOf({ PAYOUT_PROVIDER: 'cashfree', ...CREDENTIALS, CASHFREE_PAYOUTS_API_URL: 'ftp://x' })[0]).toMatch(
      /^Invalid configuration: CASHFREE_PAYOUTS_API_URL /,
    );
  });

  it('has no payee check without the Verification API’s key (KYC_*)', () => {
    expect(payeeCheckConfig(loadConfig({ PAYOUT_PROVIDER: 'cashfree', ...CREDENTIALS }))).toBeUndefined();
  });

  it('checks payees by Cashfree’s bank account verification on the Verification API’s key, not the Payouts key (decision 062)', () => {
    const verification = { KYC_PROVIDER: 'cashfree', KYC_CLIENT_ID: 'CF_VERIFICATION_ID', KYC_CLIENT_SECRET: 'cfsk_verification_secret' };
    expect(payeeCheckConfig(loadConfig({ PAYOUT_PROVIDER: 'cashfree', ...CREDENTIALS, ...verification }))).toEqual({
      provider: 'cashfree',
      verification: { provider: 'cashfree', apiUrl: 'https://api.cashfree.com', clientId: 'CF_VERIFICATION_ID', clientSecret: 'cfsk_verification_secret' },
      pollSeconds: 5,
    });
    // The Verification API's key alone checks no payee: the payouts decide whether payees are checked.
    expect(payeeCheckConfig(loadConfig(verification))).toBeUndefined();
  });
});

describe('Cashfree webhook signature', () => {
  const config = loadConfig({ PAYOUT_PROVIDER: 'cashfree', ...CREDENTIALS }).payoutProvider;
  if (config?.provider !== 'cashfree') throw new Error('no provider');
  const client = createCashfreeClient(config);
  const body = Buffer.from('{"data":{},"type":"TRANSFER_SUCCESS"}');
  const timestamp = '1746427759733';
  const signature = createHmac('sha256', CREDENTIALS.CASHFREE_PAYOUTS_CLIENT_SECRET).update(`${timestamp}${body.toString()}`).digest('base64');

  it('accepts base64 HMAC-SHA256 of the timestamp and the raw body with the client secret, and nothing else', () => {
    expect(client.verifyWebhook(body, { 'x-webhook-signature': signature, 'x-webhook-timestamp': timestamp })).toBe(true);
    expect(client.verifyWebhook(Buffer.from(`${body.toString()} `), { 'x-webhook-signature': signature, 'x-webhook-timestamp': timestamp })).toBe(false);
    expect(client.verifyWebhook(body, { 'x-webhook-signature': signature, 'x-webhook-timestamp': '1746427759734' })).toBe(false);
    expect(client.verifyWebhook(body, { 'x-webhook-signature': signature })).toBe(false);
    expect(client.verifyWebhook(body, { 'x-webhook-timestamp': timestamp })).toBe(false);
    expect(client.verifyWebhook(body, { 'x-webhook-signature': signature.slice(0, 40), 'x-webhook-timestamp': timestamp })).toBe(false);
    // Without the timestamp in what is signed, as a V1 or payments webhook might be: not ours.
    const bodyOnly = createHmac('sha256', CREDENTIALS.CASHFREE_PAYOUTS_CLIENT_SECRET).update(body).digest('base64');
    expect(client.verifyWebhook(body, { 'x-webhook-signature': bodyOnly, 'x-webhook-timestamp': timestamp })).toBe(false);
  });

  it('reads a transfer event with its status mapped, and an event about no transfer as none', () => {
    const transfer = {
      transfer_id: 'RDAB12CD34',
      cf_transfer_id: '123456',
      status: 'SUCCESS',
      status_code: 'COMPLETED',
      transfer_amount: 830.5,
      transfer_utr: 'n351200478962883',
    };
    const read = client.readWebhook(Buffer.from(JSON.stringify({ data: transfer, event_time: '2026-11-28T10:00:00', type: 'TRANSFER_SUCCESS' })), {});
    expect(read.payout).toEqual({
      providerPayoutId: '123456',
      state: 'processed',
      amountInrPaise: 83_050n,
      utr: 'N351200478962883',
      reason: 'COMPLETED',
      description: null,
      reference: 'RDAB12CD34',
    });
    expect(read.eventId).toBe('TRANSFER_SUCCESS:123456:COMPLETED:processed:N351200478962883');
    expect(client.readWebhook(Buffer.from('{"type":"LOW_BALANCE_ALERT","data":{"balance":10}}'), {}).payout).toBeUndefined();
    expect(() => client.readWebhook(Buffer.from(JSON.stringify({ type: 'TRANSFER_SUCCESS', data: { ...transfer, status: 'SOMETHING_NEW' } })), {})).toThrow(
      /unknown transfer status/,
    );
  });

  it('keeps letters and spaces of a beneficiary name, as Cashfree takes them', () => {
    expect(cashfreeBeneficiaryName("  Dr. Priya  D'Souza-Rao ")).toBe('Dr Priya D Souza Rao');
  });
});
