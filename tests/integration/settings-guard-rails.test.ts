import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { countRows, currentSettingsForm } from '../fixtures/admin.ts';
import { call } from '../fixtures/test-app.ts';

const { harness, admin } = useIntegrationFile();

/** The settings form as the web app sends it: the current values and version, with the overrides. */
async function save(overrides: Record<string, unknown>) {
  return call(harness.app, {
    method: 'PUT',
    url: '/api/admin/settings',
    cookie: admin.cookie,
    body: await currentSettingsForm(harness.app, admin.cookie, overrides),
  });
}

async function storedRates(): Promise<{ normal: string; vip: string }> {
  const result = await harness.database.handle.db.execute<{ normal: string; vip: string }>(
    sql`select rate_normal_inr_paise::text as normal, rate_vip_inr_paise::text as vip from admin_settings where id = 1`,
  );
  return result.rows[0] as { normal: string; vip: string };
}

/** Puts the rates back where each test starts (83.00 / 83.25) without going through the rules under test. */
async function resetRates(): Promise<void> {
  await harness.database.handle.db.execute(sql`update admin_settings set rate_normal_inr_paise = 8300, rate_vip_inr_paise = 8325 where id = 1`);
}

describe('the VIP rate may not be below the normal rate', () => {
  it('refuses a VIP rate below the normal rate at the vipRate field, and saves nothing', async () => {
    await resetRates();
    const audit = await countRows(harness, 'audit_log');
    const response = await save({ normalRate: '84.00', vipRate: '83.50' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'VIP rate cannot be lower than the normal rate',
      fields: { vipRate: 'VIP rate cannot be lower than the normal rate' },
    });
    expect(await storedRates()).toEqual({ normal: '8300', vip: '8325' });
    expect(await countRows(harness, 'audit_log')).toBe(audit);
  });

  it('refuses it by one paisa and accepts a VIP rate equal to the normal rate', async () => {
    await resetRates();
    expect((await save({ normalRate: '83.20', vipRate: '83.19' })).statusCode).toBe(400);
    const equal = await save({ normalRate: '83.20', vipRate: '83.20' });
    expect(equal.statusCode, equal.body).toBe(200);
    expect(equal.json().settings).toMatchObject({ normalRate: '83.20', vipRate: '83.20' });
  });
});

describe('a rate change of more than 5% needs confirmation', () => {
  it('refuses an unconfirmed change of the normal rate by more than 5%, naming the rate and the change, and saves nothing', async () => {
    await resetRates();
    const audit = await countRows(harness, 'audit_log');
    const history = await countRows(harness, 'admin_settings_history');
    const response = await save({ normalRate: '90.00', vipRate: '90.00' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({
      code: 'RATE_CHANGE_NEEDS_CONFIRMATION',
      message: 'Normal rate changes by more than 5% (83.00 → 90.00). Confirm to save it.',
      fields: {
        normalRate: 'Normal rate changes by more than 5% (83.00 → 90.00). Confirm to save it.',
        vipRate: 'VIP rate changes by more than 5% (83.25 → 90.00). Confirm to save it.',
      },
    });
    expect(await storedRates()).toEqual({ normal: '8300', vip: '8325' });
    expect(await countRows(harness, 'audit_log')).toBe(audit);
    expect(await countRows(harness, 'admin_settings_history')).toBe(history);
  });

  it('refuses a VIP rate change alone, and a change downwards', async () => {
    await resetRates();
    const vip = await save({ vipRate: '88.00' });
    expect(vip.statusCode).toBe(409);
    expect(vip.json().error.message).toBe('VIP rate changes by more than 5% (83.25 → 88.00). Confirm to save it.');
    expect(vip.json().error.fields).toEqual({ vipRate: 'VIP rate changes by more than 5% (83.25 → 88.00). Confirm to save it.' });
    const down = await save({ normalRate: '70.00', vipRate: '83.25' });
    expect(down.statusCode).toBe(409);
    expect(down.json().error.message).toBe('Normal rate changes by more than 5% (83.00 → 70.00). Confirm to save it.');
  });

  it('saves exactly 5% without asking and asks one paisa beyond, in both directions', async () => {
    // 5% of 83.00 is 4.15: 87.15 and 78.85 are at the boundary.
    await resetRates();
    expect((await save({ normalRate: '87.16', vipRate: '87.16' })).statusCode).toBe(409);
    const up = await save({ normalRate: '87.15', vipRate: '87.15' });
    expect(up.statusCode, up.body).toBe(200);
    await resetRates();
    expect((await save({ normalRate: '78.84' })).statusCode).toBe(409);
    const down = await save({ normalRate: '78.85' });
    expect(down.statusCode, down.body).toBe(200);
    expect(down.json().settings.normalRate).toBe('78.85');
  });

  it('saves a large change once the request says it was confirmed, and refuses confirmedLargeRateChange: false', async () => {
    await resetRates();
    expect((await save({ normalRate: '90.00', vipRate: '91.00', confirmedLargeRateChange: false })).statusCode).toBe(409);
    const confirmed = await save({ normalRate: '90.00', vipRate: '91.00', confirmedLargeRateChange: true });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().settings).toMatchObject({ normalRate: '90.00', vipRate: '91.00' });
    expect(await storedRates()).toEqual({ normal: '9000', vip: '9100' });
    const audit = (await call(harness.app, { url: '/api/admin/audit-log?action=settings.update&limit=1', cookie: admin.cookie })).json().items[0];
    expect(audit.after).toMatchObject({ normalRate: '90.00', vipRate: '91.00' });
  });

  it('still refuses a VIP rate below the normal rate when the change is confirmed', async () => {
    await resetRates();
    const response = await save({ normalRate: '95.00', vipRate: '90.00', confirmedLargeRateChange: true });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ vipRate: 'VIP rate cannot be lower than the normal rate' });
  });
});

describe('the large-withdrawal amount', () => {
  it('is 2,00,000 INR by default, editable, and refused when not a positive amount', async () => {
    await resetRates();
    expect((await call(harness.app, { url: '/api/admin/settings', cookie: admin.cookie })).json().largeWithdrawalInr).toBe('200000.00');
    const saved = await save({ largeWithdrawalInr: '150000.50' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().settings.largeWithdrawalInr).toBe('150000.50');
    const zero = await save({ largeWithdrawalInr: '0' });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().error.fields).toEqual({ largeWithdrawalInr: 'Large withdrawal amount must be greater than 0' });
    // Left out by an older client, it stays as it is.
    const form = await currentSettingsForm(harness.app, admin.cookie, { websiteUrl: 'https://left-out.example.com' });
    delete form.largeWithdrawalInr;
    const older = await call(harness.app, { method: 'PUT', url: '/api/admin/settings', cookie: admin.cookie, body: form });
    expect(older.statusCode, older.body).toBe(200);
    expect(older.json().settings.largeWithdrawalInr).toBe('150000.50');
  });
});
