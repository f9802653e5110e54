import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../../src/server/context.ts';
import { TOO_MANY_AT_ONCE_MESSAGE } from '../../src/server/http/in-flight-limit.ts';
import { call, createTestApp, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import { signUpAdminWithVerifiedPin as signUpAdmin } from '../fixtures/admin.ts';
import { addBankAccount, balanceMicros, configureDepositAddresses, expectLedgerConsistent, fundWallet, requestWithdrawal } from '../fixtures/wallet.ts';

let harness: TestApp;
let admin: SignedUpUser;

beforeAll(async () => {
  // The limit in force in production, not the fixture's generous one.
  harness = await createTestApp({ rateLimits: { writesInFlightPerSession: DEFAULT_RATE_LIMITS.writesInFlightPerSession } });
  await configureDepositAddresses(harness);
  admin = await signUpAdmin(harness);
});
afterAll(async () => harness.close());

describe('one customer cannot starve the others', () => {
  it("refuses a session's requests beyond a few at once with 429, spends no balance twice, and keeps answering another customer", async () => {
    const burster = await signUpVerifiedUser(harness.app);
    await fundWallet(harness, admin, burster, '100');
    const bankAccountId = await addBankAccount(harness, burster);
    const bystander = await signUpVerifiedUser(harness.app);

    const attempts = Array.from({ length: 60 }, () => requestWithdrawal(harness, burster, { amount: '10', bankAccountId }));
    const bystanderReads = (async () => {
      const statuses: number[] = [];
      for (let read = 0; read < 15; read += 1) statuses.push((await call(harness.app, { url: '/api/me', cookie: bystander.cookie })).statusCode);
      return statuses;
    })();
    const answers = await Promise.all(attempts);
    const statuses = answers.map((answer) => answer.statusCode);

    expect(
      statuses.filter((status) => status >= 500),
      'no answer is a server error',
    ).toEqual([]);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.json()).toEqual({ error: { code: 'RATE_LIMITED', message: TOO_MANY_AT_ONCE_MESSAGE } });
    // The client learns when to try again.
    expect(refused[0]?.headers['retry-after']).toBe('1');
    const accepted = statuses.filter((status) => status === 201).length;
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThanOrEqual(10);
    expect(await balanceMicros(harness, burster.id)).toBe(100_000_000n - BigInt(accepted) * 10_000_000n);
    expect(await bystanderReads).toEqual(Array.from({ length: 15 }, () => 200));

    // Once the burst is over, the same session is served normally again.
    const after = await requestWithdrawal(harness, burster, { amount: '1', bankAccountId });
    expect(after.statusCode === 201 || after.statusCode === 400).toBe(true);
    await expectLedgerConsistent(harness);
  });
});
