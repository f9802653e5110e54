import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { currentSettingsBody } from '../fixtures/admin.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { call, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import {
  addBankAccount,
  balanceMicros,
  approveWithdrawalPaid,
  decide,
  expectStatus,
  fundWallet,
  ledgerTransferCount,
  requestWithdrawal,
  setVipLevel,
} from '../fixtures/wallet.ts';

const { harness, admin } = useIntegrationFile();

interface Rules {
  normalDaily?: bigint | null;
  normalMonthly?: bigint | null;
  vipDaily?: bigint | null;
  vipMonthly?: bigint | null;
  min?: bigint | null;
  max?: bigint | null;
}

const USDT = 1_000_000n;

/** Sets the withdrawal rules straight in the settings row (the API's own checks have tests of their own below). */
async function setRules(rules: Rules): Promise<void> {
  await harness.database.handle.db.execute(sql`
    update admin_settings set
      withdrawal_daily_limit_normal_usdt_micros = ${rules.normalDaily ?? null},
      withdrawal_monthly_limit_normal_usdt_micros = ${rules.normalMonthly ?? null},
      withdrawal_daily_limit_vip_usdt_micros = ${rules.vipDaily ?? null},
      withdrawal_monthly_limit_vip_usdt_micros = ${rules.vipMonthly ?? null},
      withdrawal_min_usdt_micros = ${rules.min ?? null},
      withdrawal_max_usdt_micros = ${rules.max ?? null}
    where id = 1`);
}

afterEach(async () => setRules({}));

async function customer(amount = '200', vipLevel?: string): Promise<{ user: SignedUpUser; bankAccountId: string }> {
  const user = await signUpVerifiedUser(harness.app);
  await fundWallet(harness, admin, user, amount);
  if (vipLevel) await setVipLevel(harness, user, vipLevel);
  return { user, bankAccountId: await addBankAccount(harness, user) };
}

async function withdrawalCount(userId: string): Promise<number> {
  const result = await harness.database.handle.db.execute<{ count: string }>(
    sql`select count(*)::text as count from withdrawal_requests where user_id = ${userId}`,
  );
  return Number(result.rows[0]?.count ?? 0);
}

/** Asserts a refusal with its exact message, and that nothing moved: no withdrawal, no ledger transfer, the same balance. */
async function expectRefused(user: SignedUpUser, bankAccountId: string, amount: string, message: string): Promise<void> {
  const balance = await balanceMicros(harness, user.id);
  const transfers = await ledgerTransferCount(harness);
  const withdrawals = await withdrawalCount(user.id);
  const response = await requestWithdrawal(harness, user, { amount, bankAccountId });
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json().error).toMatchObject({ code: 'WITHDRAWAL_LIMIT', message, fields: { amount: message } });
  expect(await balanceMicros(harness, user.id)).toBe(balance);
  expect(await ledgerTransferCount(harness)).toBe(transfers);
  expect(await withdrawalCount(user.id)).toBe(withdrawals);
}

async function withdraw(user: SignedUpUser, bankAccountId: string, amount: string): Promise<string> {
  const response = await requestWithdrawal(harness, user, { amount, bankAccountId });
  expectStatus(response, 201);
  return response.json<{ withdrawal: { id: string } }>().withdrawal.id;
}

async function limitsOf(user: SignedUpUser) {
  const response = await call(harness.app, { url: '/api/withdrawals/limits', cookie: user.cookie });
  expectStatus(response, 200);
  return response.json();
}

describe('daily limits by tier', () => {
  it('a normal customer can withdraw up to the daily limit exactly, and not a cent more', async () => {
    await setRules({ normalDaily: 50n * USDT, vipDaily: 500n * USDT });
    const { user, bankAccountId } = await customer();
    await withdraw(user, bankAccountId, '40');
    await expectRefused(user, bankAccountId, '10.01', 'Daily withdrawal limit of 50.00 USDT reached: 10.00 USDT left today.');
    await withdraw(user, bankAccountId, '10');
    await expectRefused(user, bankAccountId, '1', 'Daily withdrawal limit of 50.00 USDT reached: 0.00 USDT left today.');
    expect(await balanceMicros(harness, user.id)).toBe(150n * USDT);
  });

  it('a VIP customer gets the VIP daily limit, at and over its boundary', async () => {
    await setRules({ normalDaily: 10n * USDT, vipDaily: 100n * USDT });
    const { user, bankAccountId } = await customer('300', 'vip2');
    await withdraw(user, bankAccountId, '99.99');
    await expectRefused(user, bankAccountId, '1', 'Daily withdrawal limit of 100.00 USDT reached: 0.01 USDT left today.');
    expect((await limitsOf(user)).daily).toEqual({ limitUsdt: '100.000000', usedUsdt: '99.990000', leftUsdt: '0.010000' });
  });

  it('yesterday (India time) does not count for today', async () => {
    await setRules({ normalDaily: 50n * USDT });
    const { user, bankAccountId } = await customer();
    const id = await withdraw(user, bankAccountId, '50');
    await expectRefused(user, bankAccountId, '1', 'Daily withdrawal limit of 50.00 USDT reached: 0.00 USDT left today.');
    // One minute before midnight in India.
    await harness.database.handle.db.execute(
      sql`update withdrawal_requests set created_at = (date_trunc('day', now() at time zone 'Asia/Kolkata') at time zone 'Asia/Kolkata') - interval '1 minute' where id = ${id}`,
    );
    await withdraw(user, bankAccountId, '50');
  });
});

describe('monthly limits by tier', () => {
  it('a normal customer can withdraw up to the monthly limit exactly', async () => {
    await setRules({ normalMonthly: 30n * USDT, vipMonthly: 1000n * USDT });
    const { user, bankAccountId } = await customer();
    await withdraw(user, bankAccountId, '20');
    await expectRefused(user, bankAccountId, '10.01', 'Monthly withdrawal limit of 30.00 USDT reached: 10.00 USDT left this month.');
    await withdraw(user, bankAccountId, '10');
    await expectRefused(user, bankAccountId, '1', 'Monthly withdrawal limit of 30.00 USDT reached: 0.00 USDT left this month.');
  });

  it('a VIP customer gets the VIP monthly limit', async () => {
    await setRules({ normalMonthly: 10n * USDT, vipMonthly: 60n * USDT });
    const { user, bankAccountId } = await customer('300', 'vip');
    await withdraw(user, bankAccountId, '60');
    await expectRefused(user, bankAccountId, '1', 'Monthly withdrawal limit of 60.00 USDT reached: 0.00 USDT left this month.');
  });

  it('the daily limit is checked first, and last month (India time) does not count', async () => {
    await setRules({ normalDaily: 20n * USDT, normalMonthly: 100n * USDT });
    const { user, bankAccountId } = await customer('300');
    const old = await withdraw(user, bankAccountId, '20');
    await expectRefused(user, bankAccountId, '5', 'Daily withdrawal limit of 20.00 USDT reached: 0.00 USDT left today.');
    await harness.database.handle.db.execute(
      sql`update withdrawal_requests set created_at = (date_trunc('month', now() at time zone 'Asia/Kolkata') at time zone 'Asia/Kolkata') - interval '1 second' where id = ${old}`,
    );
    expect((await limitsOf(user)).monthly).toEqual({ limitUsdt: '100.000000', usedUsdt: '0.000000', leftUsdt: '100.000000' });
    await withdraw(user, bankAccountId, '20');
  });

  it('a withdrawal earlier this month counts for the month but not for today', async () => {
    await setRules({ normalDaily: 50n * USDT, normalMonthly: 70n * USDT });
    const { user, bankAccountId } = await customer('300');
    const id = await withdraw(user, bankAccountId, '50');
    // Earlier this month: the start of the month in India time (today, when today is the 1st: then it counts for both).
    await harness.database.handle.db.execute(
      sql`update withdrawal_requests set created_at = (date_trunc('month', now() at time zone 'Asia/Kolkata') at time zone 'Asia/Kolkata') where id = ${id}`,
    );
    const limits = await limitsOf(user);
    expect(limits.monthly).toEqual({ limitUsdt: '70.000000', usedUsdt: '50.000000', leftUsdt: '20.000000' });
    await expectRefused(user, bankAccountId, '20.01', 'Monthly withdrawal limit of 70.00 USDT reached: 20.00 USDT left this month.');
  });
});

describe('what counts', () => {
  it('rejected withdrawals do not count; pending, processing and approved ones do', async () => {
    await setRules({ normalDaily: 50n * USDT });
    const { user, bankAccountId } = await customer('300');
    const rejected = await withdraw(user, bankAccountId, '50');
    expectStatus(await decide(harness, admin, 'withdrawals', rejected, 'reject', { reason: 'Test' }), 200);
    expect((await limitsOf(user)).daily.leftUsdt).toBe('50.000000');

    const processing = await withdraw(user, bankAccountId, '20');
    const batch = await call(harness.app, { method: 'POST', url: '/api/admin/payout-batches', cookie: admin.cookie, body: { withdrawalIds: [processing] } });
    expectStatus(batch, 201);
    const approved = await withdraw(user, bankAccountId, '20');
    expectStatus(await approveWithdrawalPaid(harness, admin, approved), 200);
    await withdraw(user, bankAccountId, '5');
    // 20 processing + 20 approved + 5 pending = 45 of 50.
    await expectRefused(user, bankAccountId, '5.01', 'Daily withdrawal limit of 50.00 USDT reached: 5.00 USDT left today.');
    expect((await limitsOf(user)).daily).toEqual({ limitUsdt: '50.000000', usedUsdt: '45.000000', leftUsdt: '5.000000' });

    // Failing the processing one through the batch's results refunds it and frees its share of the limit.
    const results = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/payout-batches/${batch.json().batch.id}/results`,
      cookie: admin.cookie,
      body: { rows: [{ withdrawalId: processing, outcome: 'failed', reason: 'Beneficiary bank not reachable' }] },
    });
    expectStatus(results, 200);
    await withdraw(user, bankAccountId, '25');
  });

  it('another customer’s withdrawals do not count', async () => {
    await setRules({ normalDaily: 30n * USDT });
    const first = await customer();
    const second = await customer();
    await withdraw(first.user, first.bankAccountId, '30');
    await withdraw(second.user, second.bankAccountId, '30');
  });

  it('two concurrent withdrawals cannot together exceed the daily limit', async () => {
    await setRules({ normalDaily: 50n * USDT });
    // Three customers at once, each sending two withdrawals at the same moment, so the race is likely to be hit.
    const customers = await Promise.all([1, 2, 3].map(() => customer('300')));
    const transfers = await ledgerTransferCount(harness);
    const answers = await Promise.all(
      customers.map(({ user, bankAccountId }) => Promise.all([1, 2].map(() => requestWithdrawal(harness, user, { amount: '30', bankAccountId })))),
    );
    for (const [index, pair] of answers.entries()) {
      expect(pair.map((answer) => answer.statusCode).sort()).toEqual([201, 400]);
      expect(pair.find((answer) => answer.statusCode === 400)?.json().error.message).toBe(
        'Daily withdrawal limit of 50.00 USDT reached: 20.00 USDT left today.',
      );
      expect(await balanceMicros(harness, customers[index]?.user.id ?? '')).toBe(270n * USDT);
    }
    expect(await ledgerTransferCount(harness)).toBe(transfers + 3n);
  });

  it('many concurrent withdrawals stop exactly at the monthly limit', async () => {
    await setRules({ normalMonthly: 50n * USDT });
    const { user, bankAccountId } = await customer('300');
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => requestWithdrawal(harness, user, { amount: '20', bankAccountId })));
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(2);
    expect(answers.filter((answer) => answer.statusCode === 400)).toHaveLength(3);
    expect(await balanceMicros(harness, user.id)).toBe(260n * USDT);
  });
});

describe('minimum and maximum per withdrawal', () => {
  it('refuses below the minimum and above the maximum, and accepts both bounds', async () => {
    await setRules({ min: 5n * USDT, max: 20n * USDT });
    const { user, bankAccountId } = await customer();
    await expectRefused(user, bankAccountId, '4.99', 'The minimum withdrawal is 5.00 USDT.');
    await withdraw(user, bankAccountId, '5');
    await withdraw(user, bankAccountId, '20');
    await expectRefused(user, bankAccountId, '20.01', 'The maximum withdrawal is 20.00 USDT.');
    const limits = await limitsOf(user);
    expect(limits).toMatchObject({ tier: 'normal', minUsdt: '5.000000', maxUsdt: '20.000000', availableUsdt: '20.000000' });
  });

  it('the app’s own minimum of 1.00 USDT stays when the setting is lower or empty', async () => {
    const { user } = await customer();
    expect(await limitsOf(user)).toMatchObject({
      minUsdt: '1.000000',
      maxUsdt: null,
      daily: { limitUsdt: null, leftUsdt: null },
      monthly: { limitUsdt: null, leftUsdt: null },
      availableUsdt: null,
    });
  });
});

describe('the limits read', () => {
  it('shows the tier’s limits and what is left, the smallest bound as available', async () => {
    await setRules({ normalDaily: 50n * USDT, normalMonthly: 500n * USDT, vipDaily: 1000n * USDT, max: 45n * USDT });
    const { user, bankAccountId } = await customer();
    await withdraw(user, bankAccountId, '12.5');
    expect(await limitsOf(user)).toEqual({
      tier: 'normal',
      minUsdt: '1.000000',
      maxUsdt: '45.000000',
      daily: { limitUsdt: '50.000000', usedUsdt: '12.500000', leftUsdt: '37.500000' },
      monthly: { limitUsdt: '500.000000', usedUsdt: '12.500000', leftUsdt: '487.500000' },
      availableUsdt: '37.500000',
      tdsPercent: '0.00',
      // A level 1 customer has a verified PAN (decision 042).
      hasPan: true,
      panRequired: false,
    });
  });

  it('answers only a signed-in customer', async () => {
    const response = await call(harness.app, { url: '/api/withdrawals/limits' });
    expect(response.statusCode).toBe(401);
  });
});

describe('the settings', () => {
  it('saves the limits, minimum and maximum through the settings form, empty meaning none', async () => {
    const response = await call(harness.app, {
      method: 'PUT',
      url: '/api/admin/settings',
      cookie: admin.cookie,
      body: await currentSettingsBody(harness.app, admin.cookie, {
        withdrawalLimits: { normal: { dailyUsdt: '50', monthlyUsdt: '' }, vip: { dailyUsdt: '500.25', monthlyUsdt: null } },
        withdrawalMinUsdt: '2',
        withdrawalMaxUsdt: '',
      }),
    });
    expectStatus(response, 200);
    expect(response.json().settings).toMatchObject({
      withdrawalLimits: { normal: { dailyUsdt: '50.000000', monthlyUsdt: null }, vip: { dailyUsdt: '500.250000', monthlyUsdt: null } },
      withdrawalMinUsdt: '2.000000',
      withdrawalMaxUsdt: null,
    });
    const audit = await harness.database.handle.db.execute<{ after: Record<string, unknown> }>(
      sql`select after from audit_log where action = 'settings.update' order by id desc limit 1`,
    );
    expect(audit.rows[0]?.after).toMatchObject({ withdrawalDailyLimitNormal: '50.000000', withdrawalDailyLimitVip: '500.250000', withdrawalMin: '2.000000' });

    // A save without the fields (an older client) keeps them.
    const again = await call(harness.app, {
      method: 'PUT',
      url: '/api/admin/settings',
      cookie: admin.cookie,
      body: await currentSettingsBody(harness.app, admin.cookie),
    });
    expectStatus(again, 200);
    expect(again.json().settings.withdrawalLimits.normal.dailyUsdt).toBe('50.000000');
  });

  it.each([
    [{ withdrawalMinUsdt: '0' }, 'Minimum withdrawal must be greater than 0 (leave it empty for no limit)'],
    [{ withdrawalMaxUsdt: '10.001' }, 'Maximum withdrawal can have at most 2 decimal places'],
    [{ withdrawalMaxUsdt: 'ten' }, 'Maximum withdrawal must be a number'],
    [{ withdrawalLimits: { normal: { dailyUsdt: '-5', monthlyUsdt: '' }, vip: { dailyUsdt: '', monthlyUsdt: '' } } }, 'Daily limit must be a number'],
    [{ withdrawalMinUsdt: '30', withdrawalMaxUsdt: '20' }, 'The minimum withdrawal cannot be more than the maximum withdrawal.'],
  ])('refuses %o with its message and saves nothing', async (fields, message) => {
    const before = await call(harness.app, { url: '/api/admin/settings', cookie: admin.cookie });
    const response = await call(harness.app, {
      method: 'PUT',
      url: '/api/admin/settings',
      cookie: admin.cookie,
      body: await currentSettingsBody(harness.app, admin.cookie, fields),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(message);
    const after = await call(harness.app, { url: '/api/admin/settings', cookie: admin.cookie });
    expect(after.json()).toEqual(before.json());
  });
});
