import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetricsServer } from '../../src/server/platform/metrics/metrics.ts';
import { call, createTestApp, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import { signUpAdminWithVerifiedPin as signUpAdmin } from '../fixtures/admin.ts';
import { addBankAccount, configureDepositAddresses, fundWallet, requestWithdrawal } from '../fixtures/wallet.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
let harness: TestApp;
let customer: SignedUpUser;

beforeAll(async () => {
  harness = await createTestApp({ metricsToken: TOKEN });
  await configureDepositAddresses(harness);
  const admin = await signUpAdmin(harness);
  customer = await signUpVerifiedUser(harness.app);
  await fundWallet(harness, admin, customer, '50');
  const bankAccountId = await addBankAccount(harness, customer);
  expect((await requestWithdrawal(harness, customer, { amount: '10', bankAccountId })).statusCode).toBe(201);
  expect((await requestWithdrawal(harness, customer, { amount: '1000', bankAccountId })).statusCode).toBe(400);
});
afterAll(async () => harness.close());

function scrape(authorization?: string) {
  return harness.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
}

describe('/metrics', () => {
  it('refuses a scrape without the bearer token', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape('Bearer wrong-token-wrong-token-wrong')).statusCode).toBe(401);
  });

  it('reports requests by route and status, money operations by kind and outcome, the pool, the queues and the streams', async () => {
    await call(harness.app, { url: '/api/me', cookie: customer.cookie });
    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    const text = response.body;
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/api\/me",status="200"\} [1-9]/m);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/me",status="200"\} [1-9]/m);
    expect(text).toMatch(/^money_operations_total\{kind="withdrawal_request",outcome="succeeded"\} 1$/m);
    expect(text).toMatch(/^money_operations_total\{kind="withdrawal_request",outcome="refused"\} 1$/m);
    expect(text).toMatch(/^money_operations_total\{kind="deposit_approve",outcome="succeeded"\} 1$/m);
    expect(text).toMatch(/^pending_requests\{kind="withdrawal"\} 1$/m);
    expect(text).toMatch(/^pending_requests\{kind="deposit"\} 0$/m);
    expect(text).toMatch(/^db_pool_connections [1-9]/m);
    expect(text).toMatch(/^db_pool_waiting_requests 0$/m);
    expect(text).toMatch(/^event_streams_open 0$/m);
  });

  it('is not served at all without METRICS_TOKEN', async () => {
    const open = await createTestApp({ database: harness.database });
    try {
      expect((await open.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await open.close();
    }
  });

  it('can be served on a port of its own instead', async () => {
    const server = await startMetricsServer(harness.app.metrics!, { host: '127.0.0.1', port: 0, token: undefined });
    try {
      const port = (server.address() as AddressInfo).port;
      const body = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: '/metrics' }, (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString()));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
          })
          .on('error', reject);
      });
      expect(body.status).toBe(200);
      expect(body.text).toContain('money_operations_total');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
