import { describe, expect, it } from 'vitest';
import { publicSettingsResponseSchema, ratesResponseSchema } from '#shared/contracts/settings';
import { currentSettingsBody, fileBytes, uploadFile } from '../fixtures/admin.ts';
import { call, signUpVerifiedUser } from '../fixtures/test-app.ts';
import { addBankAccount, expectStatus, fundWallet, requestWithdrawal, setRates } from '../fixtures/wallet.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

/*
 * The landing page, the rate card and the converter read these two public
 * answers; what they show must be the rates the server then uses.
 */
const { harness, admin } = useIntegrationFile();

describe('GET /api/rates and /api/settings/public', () => {
  it('answer visitors without a session, uncached, in the shape of their contracts', async () => {
    const rates = await harness.app.inject({ method: 'GET', url: '/api/rates' });
    expect(rates.statusCode).toBe(200);
    expect(rates.headers['cache-control']).toBe('no-store');
    expect(ratesResponseSchema.parse(rates.json())).toMatchObject({ normalRate: '83.00', vipRate: '83.25', fallback: false });

    const settings = await harness.app.inject({ method: 'GET', url: '/api/settings/public' });
    expect(settings.statusCode).toBe(200);
    expect(settings.headers['cache-control']).toBe('no-store');
    const body = publicSettingsResponseSchema.parse(settings.json());
    expect(body.rates).toEqual(rates.json());
    expect(body.apk).toEqual({ exists: false, url: null, sizeBytes: null });
  });

  it('show a rate change, the support number and the website at once', async () => {
    expectStatus(
      await call(harness.app, {
        method: 'PUT',
        url: '/api/admin/settings',
        cookie: admin.cookie,
        body: await currentSettingsBody(harness.app, admin.cookie, {
          normalRate: '88.5',
          vipRate: '89.75',
          whatsappSupportNumber: '+91 90000 11111',
          websiteUrl: 'https://example.org',
          // More than 5 % from the seeded rates: the admin confirmed it (decision 017).
          confirmedLargeRateChange: true,
        }),
      }),
      200,
    );
    const rates = (await harness.app.inject({ method: 'GET', url: '/api/rates' })).json();
    expect(rates).toMatchObject({ normalRate: '88.50', vipRate: '89.75' });
    const settings = publicSettingsResponseSchema.parse((await harness.app.inject({ method: 'GET', url: '/api/settings/public' })).json());
    expect(settings.rates).toEqual(rates);
    expect(settings.whatsappSupportNumber).toBe('+919000011111');
    expect(settings.websiteUrl).toBe('https://example.org');
  });

  it('report the app download only once an APK was uploaded', async () => {
    expectStatus(
      await uploadFile(harness.app, '/api/admin/files/apk', {
        cookie: admin.cookie,
        bytes: fileBytes('zip', 1024),
        fileName: 'app.apk',
        contentType: 'application/vnd.android.package-archive',
      }),
      201,
    );
    const settings = publicSettingsResponseSchema.parse((await harness.app.inject({ method: 'GET', url: '/api/settings/public' })).json());
    expect(settings.apk.exists).toBe(true);
    expect(settings.apk.url).toMatch(/^\/api\/files\/apk/);
    const download = await harness.app.inject({ method: 'GET', url: settings.apk.url as string });
    expect(download.statusCode).toBe(200);
  });

  it('are the rates a withdrawal then uses: standard below 1 Lakh, VIP from 1 Lakh', async () => {
    // Rates of its own, so this test does not depend on an earlier one.
    await setRates(harness, 8850n, 8975n);
    const rates = ratesResponseSchema.parse((await harness.app.inject({ method: 'GET', url: '/api/rates' })).json());
    expect(rates).toMatchObject({ normalRate: '88.50', vipRate: '89.75' });
    const customer = await signUpVerifiedUser(harness.app);
    await fundWallet(harness, admin, customer, '2000');
    const bankAccountId = await addBankAccount(harness, customer);

    const small = await requestWithdrawal(harness, customer, { amount: '100', bankAccountId });
    expectStatus(small, 201);
    expect(small.json().withdrawal).toMatchObject({ rateInr: rates.normalRate, rateTier: 'normal', amountInr: '8850.00' });

    // 1130 USDT x 88.50 = 1,00,005 INR: at or above 1 Lakh the VIP rate applies.
    const large = await requestWithdrawal(harness, customer, { amount: '1130', bankAccountId });
    expectStatus(large, 201);
    expect(large.json().withdrawal).toMatchObject({ rateInr: rates.vipRate, rateTier: 'vip', amountInr: '101417.50' });
  });
});
