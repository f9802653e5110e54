import { expect, test } from '@playwright/test';
import { ratesResponseSchema } from '#shared/contracts/settings';
import { tdsInrPaiseFor } from '#shared/contracts/withdrawal-rules';
import { formatInrForDisplay, inrPaiseForUsdt, inrPaiseFromWire, MICROS_PER_USDT } from '#shared/money';
import { addBankAccountAs, AdminApi, E2E_ADMIN_PIN, submitDepositAs } from './support/admin-api.ts';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD } from './support/constants.ts';
import { logInThroughForm, newCustomer, signUpThroughForm } from './support/helpers.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';

// The settings are shared by the whole suite (one worker, one server): the limit and TDS set here are taken away after.
let admin: AdminApi;
let normalRatePaise: bigint;
const NO_LIMITS = { normal: { dailyUsdt: '', monthlyUsdt: '' }, vip: { dailyUsdt: '', monthlyUsdt: '' } };

test.beforeAll(async () => {
  admin = await AdminApi.open();
  await admin.ensureTrc20DepositAddress();
  await admin.updateSettings({ withdrawalLimits: { ...NO_LIMITS, normal: { dailyUsdt: '50', monthlyUsdt: '' } }, tdsPercent: '1', withdrawalMinUsdt: '5' });
  const rates = ratesResponseSchema.parse(await (await admin.context.get('/api/rates')).json());
  normalRatePaise = inrPaiseFromWire(rates.normalRate);
});

test.afterAll(async () => {
  await admin.updateSettings({ withdrawalLimits: NO_LIMITS, tdsPercent: '0', withdrawalMinUsdt: '' });
  await admin.dispose();
});

test('at 390 px the withdraw page shows what is left today, and with the PAN of KYC level 1 gross, TDS and net up to the success screen', async ({ page }) => {
  test.slow();
  const customer = newCustomer({ name: 'Kavya Nair' });
  await signUpThroughForm(page, customer);
  const deposit = await submitDepositAs(page, '100');
  await admin.approveDeposit(deposit.id);
  await addBankAccountAs(page, {
    accountHolderName: 'Kavya Nair',
    accountNumber: '123456789012',
    bankName: 'State Bank of India',
    ifscCode: 'SBIN0001234',
    upiId: '',
  });

  await page.goto('/wallet/withdraw');
  await expect(page.getByTestId('withdrawal-limits')).toContainText('Today: 50.00 USDT left of 50.00 USDT');
  // The configured minimum, not the app's own 1.00 USDT.
  await expect(page.getByText('Minimum withdrawal: 5.00 USDT')).toBeVisible();
  // A customer at KYC level 1 has a verified PAN (decision 042), so the PAN is never asked for here.
  await expect(page.getByTestId('pan-required')).toHaveCount(0);
  await expectNoSidewaysScroll(page);

  // Max is what can leave now: the 50.00 USDT left today, not the 100.00 USDT balance.
  await page.getByRole('button', { name: 'Max' }).click();
  await expect(page.getByLabel('Amount (USDT)')).toHaveValue('50.00');
  await page.getByLabel('Bank Account', { exact: true }).selectOption({ index: 1 });
  await page.getByLabel('Amount (USDT)').fill('60');
  await page.getByRole('button', { name: 'Request Withdrawal' }).click();
  await expect(page.getByText('Daily withdrawal limit of 50.00 USDT reached: 50.00 USDT left today.')).toBeVisible();

  const grossPaise = inrPaiseForUsdt(20n * MICROS_PER_USDT, normalRatePaise);
  const tdsPaise = tdsInrPaiseFor(grossPaise, 100n);
  const netPaise = grossPaise - tdsPaise;
  await page.getByLabel('Amount (USDT)').fill('20');
  await expect(page.getByTestId('inr-preview')).toHaveText(formatInrForDisplay(netPaise));
  await expect(page.getByTestId('tds-preview')).toHaveText(
    `${formatInrForDisplay(grossPaise)} less TDS (1.00%, section 194S) ${formatInrForDisplay(tdsPaise)}`,
  );
  await page.getByRole('button', { name: 'Request Withdrawal' }).click();
  const pinDialog = page.getByRole('dialog', { name: 'Enter Transaction PIN' });
  await expect(pinDialog).toContainText(
    `${formatInrForDisplay(grossPaise)} less TDS (1.00%) ${formatInrForDisplay(tdsPaise)}: you receive ${formatInrForDisplay(netPaise)}`,
  );
  await pinDialog.getByLabel('Transaction PIN').fill(customer.pin);
  await pinDialog.getByRole('button', { name: 'Confirm Withdrawal' }).click();

  await expect(page.getByRole('heading', { name: 'Withdrawal Request Submitted' })).toBeVisible();
  await expect(page.getByTestId('tds-gross')).toHaveText(formatInrForDisplay(grossPaise));
  await expect(page.getByTestId('tds-amount')).toHaveText(`− ${formatInrForDisplay(tdsPaise)}`);
  await expect(page.getByTestId('tds-net')).toHaveText(formatInrForDisplay(netPaise));
  await expectNoSidewaysScroll(page);

  await page.goto('/wallet/withdraw');
  await expect(page.getByTestId('withdrawal-limits')).toContainText('Today: 30.00 USDT left of 50.00 USDT');

  // The admin's queue shows what the bank pays.
  const withdrawal = await admin.findPendingWithdrawal(customer.email);
  expect(withdrawal).toMatchObject({
    amountInr: (Number(grossPaise) / 100).toFixed(2),
    tdsInr: (Number(tdsPaise) / 100).toFixed(2),
    netInr: (Number(netPaise) / 100).toFixed(2),
  });
  await admin.rejectWithdrawal(withdrawal.id, 'Test over');
});

test('the admin sets limits and TDS on the settings tab, and downloads the TDS report from Payouts', async ({ browser }) => {
  test.slow();
  const context = await browser.newContext({ acceptDownloads: true });
  try {
    const page = await context.newPage();
    await logInThroughForm(page, E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_ADMIN_PIN);
    await page.goto('/admin/settings');
    await page.getByRole('tab', { name: 'Withdrawals & TDS' }).click();
    const panel = page.getByRole('tabpanel', { name: /Withdrawals & TDS/ });
    await expect(panel.getByLabel('Daily limit, normal customers (USDT)')).toHaveValue('50');
    await expect(panel.getByLabel('TDS (%)')).toHaveValue('1.00');
    const saveButton = page.getByRole('button', { name: 'Save All Settings' });

    await panel.getByLabel('TDS (%)').fill('31');
    await saveButton.press('Enter');
    await expect(panel.getByText('TDS percent must be a number from 0 to 30')).toBeVisible();

    await panel.getByLabel('TDS (%)').fill('1.5');
    await panel.getByLabel('Daily limit, VIP customers (USDT)').fill('500');
    await panel.getByLabel('Minimum per withdrawal (USDT)').fill('30');
    await panel.getByLabel('Maximum per withdrawal (USDT)').fill('20');
    await saveButton.press('Enter');
    await expect(page.getByText('The minimum withdrawal cannot be more than the maximum withdrawal.').first()).toBeVisible();
    await panel.getByLabel('Minimum per withdrawal (USDT)').fill('');
    await saveButton.press('Enter');
    await expect(page.getByText('Settings updated successfully')).toBeVisible();
    await expectNoSidewaysScroll(page);
    const saved = await (await admin.context.get('/api/admin/settings')).json();
    expect(saved).toMatchObject({
      withdrawalLimits: { normal: { dailyUsdt: '50.000000', monthlyUsdt: null }, vip: { dailyUsdt: '500.000000', monthlyUsdt: null } },
      withdrawalMinUsdt: null,
      withdrawalMaxUsdt: '20.000000',
      tdsPercent: '1.50',
    });

    await page.goto('/admin/payouts');
    const report = page.getByRole('region', { name: 'TDS report' });
    await expect(report).toBeVisible();
    const downloaded = page.waitForEvent('download');
    await report.getByRole('link', { name: 'Download CSV' }).click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toMatch(/^tds-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    await expectNoSidewaysScroll(page);
  } finally {
    await context.close();
    await admin.updateSettings({ withdrawalMaxUsdt: '' });
  }
});
