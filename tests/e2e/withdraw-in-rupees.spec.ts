import { expect, test } from '@playwright/test';
import { ratesResponseSchema } from '#shared/contracts/settings';
import { tdsInrPaiseFor } from '#shared/contracts/withdrawal-rules';
import { quoteWithdrawal, usdtMicrosForNetInr } from '#shared/contracts/withdrawals';
import { formatInrForDisplay, formatUsdtExact, inrPaiseFromWire, inrPaiseToWire, usdtMicrosToWire } from '#shared/money';
import { addBankAccountAs, AdminApi, submitDepositAs } from './support/admin-api.ts';
import { newCustomer, signUpThroughForm } from './support/helpers.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';

// Issue 31, section 5: the customer types the rupees to receive after TDS, sees the USDT needed, and the
// request is that USDT amount with the rupees it pays, so the server's rate guard applies as before.
// The TDS set here is shared by the suite (one worker, one server) and taken away after.
let admin: AdminApi;

test.beforeAll(async () => {
  admin = await AdminApi.open();
  await admin.ensureTrc20DepositAddress();
  await admin.updateSettings({ tdsPercent: '1' });
});

test.afterAll(async () => {
  await admin.updateSettings({ tdsPercent: '0' });
  await admin.dispose();
});

test('at 390 px a customer withdraws ₹1,000 typed in rupees: the USDT needed, the PIN, and the withdrawal with matching amounts', async ({ page }) => {
  test.slow();
  expect(page.viewportSize()).toEqual({ width: 390, height: 844 });
  const customer = newCustomer({ name: 'Meera Rupaiya' });
  await signUpThroughForm(page, customer);
  const deposit = await submitDepositAs(page, '100');
  await admin.approveDeposit(deposit.id);
  const bankAccountId = await addBankAccountAs(page, {
    accountHolderName: 'Meera Rupaiya',
    accountNumber: '445566778899',
    ifscCode: 'SBIN0001234',
    upiId: null,
  });
  const rates = ratesResponseSchema.parse(await (await admin.context.get('/api/rates')).json());
  const pricing = { rateNormalInrPaise: inrPaiseFromWire(rates.normalRate), rateVipInrPaise: inrPaiseFromWire(rates.vipRate) };
  const neededMicros = usdtMicrosForNetInr(100_000n, pricing, 'normal', 100n);
  if (neededMicros === undefined) throw new Error('no USDT amount for ₹1,000');
  const grossPaise = quoteWithdrawal(neededMicros, pricing, 'normal').amountInrPaise;
  const tdsPaise = tdsInrPaiseFor(grossPaise, 100n);
  const netPaise = grossPaise - tdsPaise;
  expect(netPaise).toBeGreaterThanOrEqual(100_000n);

  await page.goto('/wallet/withdraw');
  // The only payee is chosen already.
  await expect(page.getByLabel('Bank Account', { exact: true })).toHaveValue(bankAccountId);
  const rupees = page.getByRole('radio', { name: '₹ Rupees' });
  await expect(page.getByRole('radio', { name: 'USDT' })).toBeChecked();
  await rupees.check();
  await expect(rupees).toBeChecked();
  const rupeeField = page.getByLabel('Rupees you receive (₹)');

  // The limits are said at the rupee field: more than the 100 USDT balance, and less than the minimum.
  await rupeeField.fill('100000');
  await page.getByRole('button', { name: 'Request Withdrawal' }).click();
  await expect(rupeeField).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Insufficient balance')).toBeVisible();
  await rupeeField.fill('10');
  await expect(page.getByText('Minimum withdrawal is 1.00 USDT')).toBeVisible();

  await rupeeField.fill('1000');
  await expect(page.getByTestId('usdt-needed')).toHaveText(`USDT needed: ${formatUsdtExact(neededMicros)} USDT`);
  await expect(page.getByTestId('inr-preview')).toHaveText(formatInrForDisplay(netPaise));
  await expect(page.getByTestId('tds-preview')).toHaveText(
    `${formatInrForDisplay(grossPaise)} less TDS (1.00%, section 194S) ${formatInrForDisplay(tdsPaise)}`,
  );
  await expect(rupeeField).not.toHaveAttribute('aria-invalid', 'true');
  await expectNoSidewaysScroll(page);

  // Switching shows the same withdrawal in USDT, and back.
  await page.getByRole('radio', { name: 'USDT' }).check();
  await expect(page.getByLabel('Amount (USDT)')).toHaveValue(formatUsdtExact(neededMicros));
  await rupees.check();
  await expect(rupeeField).toHaveValue(inrPaiseToWire(netPaise));
  await rupeeField.fill('1000');

  await page.getByRole('button', { name: 'Request Withdrawal' }).click();
  const pinDialog = page.getByRole('dialog', { name: 'Enter Transaction PIN' });
  await expect(pinDialog).toContainText(`Withdraw ${formatUsdtExact(neededMicros)} USDT`);
  await expect(pinDialog).toContainText(`you receive ${formatInrForDisplay(netPaise)}`);
  await pinDialog.getByLabel('Transaction PIN').fill(customer.pin);
  await pinDialog.getByRole('button', { name: 'Confirm Withdrawal' }).click();

  await expect(page.getByRole('heading', { name: 'Withdrawal Request Submitted' })).toBeVisible();
  await expect(page.getByText(`${formatUsdtExact(neededMicros)} USDT`)).toBeVisible();
  await expect(page.getByTestId('tds-gross')).toHaveText(formatInrForDisplay(grossPaise));
  await expect(page.getByTestId('tds-net')).toHaveText(formatInrForDisplay(netPaise));

  const withdrawal = await admin.findPendingWithdrawal(customer.email);
  expect(withdrawal).toMatchObject({
    amountUsdt: usdtMicrosToWire(neededMicros),
    amountInr: inrPaiseToWire(grossPaise),
    tdsInr: inrPaiseToWire(tdsPaise),
    netInr: inrPaiseToWire(netPaise),
  });
  await admin.rejectWithdrawal(withdrawal.id, 'Test over');
});
