import { expect, test, type Page } from '@playwright/test';
import { BANK_ACCOUNT_MESSAGES } from '#shared/contracts/bank-accounts';
import { DEPOSIT_MESSAGES } from '#shared/contracts/deposits';
import { ratesResponseSchema } from '#shared/contracts/settings';
import { formatInrForDisplay, inrPaiseForUsdt, inrPaiseFromWire, MICROS_PER_USDT } from '#shared/money';
import { AdminApi, E2E_TRC20_ADDRESS, signUpThroughApi, uniqueTrc20Hash } from './support/admin-api.ts';
import { addBankAccountThroughForm } from './support/admin-and-customer.ts';
import { newCustomer, signUpThroughForm } from './support/helpers.ts';

let admin: AdminApi;
let normalRatePaise: bigint;

test.beforeAll(async () => {
  admin = await AdminApi.open();
  await admin.ensureTrc20DepositAddress();
  // Other tests may change the rates; the expected INR amounts follow whatever is stored.
  const rates = ratesResponseSchema.parse(await (await admin.context.get('/api/rates')).json());
  normalRatePaise = inrPaiseFromWire(rates.normalRate);
});

test.afterAll(async () => {
  await admin.dispose();
});

const inrAtNormalRate = (wholeUsdt: bigint) => formatInrForDisplay(inrPaiseForUsdt(wholeUsdt * MICROS_PER_USDT, normalRatePaise));

/**
 * The header's Refresh button refetches what the page shows (live updates may do it
 * first; this keeps the test independent of them). Pressed with the keyboard: on a
 * phone-sized screen a toast may lie over the header and hold up a pointer click.
 */
async function refreshFromHeader(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Refresh', exact: true }).press('Enter');
}

test('deposit approved, withdrawal with PIN rejected and refunded, transfer held and returned', async ({ page }) => {
  // The longest flow of the suite: over a minute on a busy machine.
  test.slow();
  const customer = newCustomer({ name: 'Ravi Kumar' });
  await signUpThroughForm(page, customer);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);

  // Bank account
  await page.goto('/bank-accounts');
  await expect(page.getByText(BANK_ACCOUNT_MESSAGES.empty)).toBeVisible();
  await addBankAccountThroughForm(page, {
    holder: 'Ravi Kumar',
    number: '1234 5678 9012',
    bank: 'State Bank of India',
    ifsc: 'sbin0001234',
    upi: 'ravi@oksbi',
  });
  const accountList = page.getByRole('list', { name: 'Bank accounts' });
  await expect(accountList.getByText('State Bank of India')).toBeVisible();
  await expect(accountList.getByText('•••• 9012')).toBeVisible();
  await expect(accountList.getByText('123456789012')).toHaveCount(0);

  // Deposit
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Deposit USDT' }).click();
  await expect(page).toHaveURL(/\/wallet\/deposit$/);
  await expect(page.getByLabel('Network')).toHaveValue('TRC20');
  await expect(page.getByLabel('TRC20 Deposit Address')).toHaveText(E2E_TRC20_ADDRESS);
  await page.getByRole('button', { name: 'Copy address' }).click();
  await expect(page.getByText('Address copied to clipboard')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(E2E_TRC20_ADDRESS);
  await page.getByRole('tab', { name: 'QR Code' }).click();
  await expect(page.getByRole('img', { name: 'QR code of the TRC20 deposit address' })).toBeVisible();

  await page.getByLabel('Amount (USDT)').fill('100');
  await page.getByLabel('Transaction Hash').fill('not-a-hash');
  await page.getByRole('button', { name: 'Submit Deposit' }).click();
  await expect(page.getByText(DEPOSIT_MESSAGES.trc20HashShape)).toBeVisible();

  const hash = uniqueTrc20Hash();
  await page.getByLabel('Transaction Hash').fill(hash);
  await page.getByRole('button', { name: 'Submit Deposit' }).click();
  await expect(page.getByRole('heading', { name: 'Deposit Request Submitted' })).toBeVisible();
  await expect(page.getByText('Pending Approval (50%)')).toBeVisible();
  await expect(page.getByText(hash)).toBeVisible();
  await expect(page.getByText(inrAtNormalRate(100n))).toBeVisible();
  await expect(page.getByText('Deposit request submitted successfully')).toBeVisible();

  // Admin approves through the API; the customer refreshes.
  const deposit = await admin.findPendingDeposit(hash);
  expect(deposit.user.email).toBe(customer.email);
  expect(deposit.amount).toBe('100.000000');
  await admin.approveDeposit(deposit.id);
  await refreshFromHeader(page);
  await expect(page.getByTestId('balance-chip')).toHaveText('100.00 USDT');

  await page.getByRole('link', { name: 'Back to Wallet' }).click();
  await expect(page).toHaveURL(/\/wallet$/);
  await expect(page.getByTestId('wallet-balance')).toHaveText('100.00 USDT');
  await expect(page.getByTestId('wallet-inr-estimate')).toHaveText(`≈ ${inrAtNormalRate(100n)}`);
  await expect(page.getByText('No pending withdrawals')).toBeVisible();

  // Withdraw 60 USDT with the PIN (a wrong one first).
  await page.getByRole('link', { name: 'Withdraw', exact: true }).click();
  await expect(page).toHaveURL(/\/wallet\/withdraw$/);
  await expect(page.getByTestId('available-balance')).toHaveText('100.00 USDT');
  await page.getByRole('button', { name: 'Max' }).click();
  await expect(page.getByLabel('Amount (USDT)')).toHaveValue('100.00');
  await page.getByLabel('Amount (USDT)').fill('60');
  await expect(page.getByTestId('inr-preview')).toHaveText(inrAtNormalRate(60n));
  await page.getByLabel('Bank Account', { exact: true }).selectOption({ label: 'State Bank of India ••••9012 (Ravi Kumar)' });
  await page.getByRole('button', { name: 'Request Withdrawal' }).click();

  const pinDialog = page.getByRole('dialog', { name: 'Enter Transaction PIN' });
  // The amount as every screen writes it, not as typed.
  await expect(pinDialog).toContainText(`Withdraw 60.00 USDT (≈ ${inrAtNormalRate(60n)})`);
  await pinDialog.getByLabel('Transaction PIN').fill('0000');
  await pinDialog.getByRole('button', { name: 'Confirm Withdrawal' }).click();
  await expect(pinDialog.getByText('Incorrect PIN. Please try again.')).toBeVisible();
  await expect(pinDialog.getByLabel('Transaction PIN')).toHaveValue('');
  await pinDialog.getByLabel('Transaction PIN').fill(customer.pin);
  await pinDialog.getByRole('button', { name: 'Confirm Withdrawal' }).click();

  await expect(page.getByRole('heading', { name: 'Withdrawal Request Submitted' })).toBeVisible();
  await expect(page.getByText('Withdrawal request submitted successfully')).toBeVisible();
  await expect(page.getByTestId('balance-chip')).toHaveText('40.00 USDT');

  await page.getByRole('link', { name: 'Back to Wallet' }).click();
  await expect(page.getByTestId('wallet-balance')).toHaveText('40.00 USDT');
  const pendingList = page.getByRole('list', { name: 'Pending withdrawals' });
  await expect(pendingList.getByText(inrAtNormalRate(60n))).toBeVisible();
  await expect(pendingList.getByText('Pending', { exact: true })).toBeVisible();

  await page.goto('/profile');
  // USDT, not "$" (issue 12).
  await expect(page.getByTestId('pending-withdrawal')).toHaveText('60.00 USDT');
  await expect(page.getByTestId('pending-deposit')).toHaveText('0.00 USDT');

  // Admin rejects: the 60 USDT held come back.
  const withdrawal = await admin.findPendingWithdrawal(customer.email);
  expect(withdrawal.amountUsdt).toBe('60.000000');
  // Before an admin acts, it waits for approval (it is processing only once in a payout batch).
  await page.goto(`/wallet/transactions/withdrawal/${withdrawal.id}`);
  await expect(page.getByRole('list', { name: 'Status timeline' }).getByRole('listitem')).toHaveText([/Requested/, /Waiting for approval/, /Paid/]);
  await admin.rejectWithdrawal(withdrawal.id, 'Bank details could not be verified');

  await page.goto('/wallet');
  await page.getByRole('button', { name: 'Refresh pending withdrawals' }).click();
  await expect(page.getByText('No pending withdrawals')).toBeVisible();
  await refreshFromHeader(page);
  await expect(page.getByTestId('balance-chip')).toHaveText('100.00 USDT');
  await expect(page.getByTestId('wallet-balance')).toHaveText('100.00 USDT');

  // History: newest first, the rejection reason inline, the Deposits tab.
  await page.getByRole('link', { name: 'Transaction History' }).click();
  await expect(page).toHaveURL(/\/wallet\/history$/);
  const rows = page.getByRole('tabpanel').getByRole('row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('Withdrawal');
  await expect(rows.nth(1)).toContainText('Rejected');
  await expect(rows.nth(2)).toContainText('Deposit');
  await expect(rows.nth(2)).toContainText('100.00');
  await expect(rows.nth(2)).toContainText('Approved');
  await expect(rows.nth(1)).toContainText('Reason: Bank details could not be verified');
  await expect(rows.nth(2)).not.toContainText('Reason:');
  await page.getByRole('tab', { name: 'Deposits' }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('TRC20');

  // Transfer to another customer: held at once, returned when the admin rejects it.
  const recipient = newCustomer({ name: 'Asha Rao' });
  await signUpThroughApi(recipient);
  await page.goto('/wallet');
  await page.getByRole('button', { name: 'Transfer USDT' }).click();
  const transferDialog = page.getByRole('dialog', { name: 'Transfer USDT' });
  await transferDialog.getByLabel('Recipient Email').fill(recipient.email);
  await transferDialog.getByLabel('Amount (USDT)').fill('25');
  await transferDialog.getByLabel('Transaction PIN').fill(customer.pin);
  await transferDialog.getByRole('button', { name: 'Send Transfer' }).click();
  await expect(page.getByText('Transfer request submitted successfully')).toBeVisible();
  await expect(transferDialog).toBeHidden();
  await expect(page.getByTestId('balance-chip')).toHaveText('75.00 USDT');

  const transfer = await admin.findPendingTransfer(customer.email);
  expect(transfer.recipient.email).toBe(recipient.email);
  await admin.rejectTransfer(transfer.id);
  await refreshFromHeader(page);
  await expect(page.getByTestId('balance-chip')).toHaveText('100.00 USDT');
});

test('bank account form shows the spec messages; edit is pre-filled; delete asks for confirmation', async ({ page }) => {
  await signUpThroughForm(page, newCustomer());
  await page.goto('/bank-accounts');
  await expect(page.getByText(BANK_ACCOUNT_MESSAGES.empty)).toBeVisible();

  await page.getByRole('button', { name: 'Add Account' }).click();
  const addDialog = page.getByRole('dialog', { name: 'Add Bank Account' });
  await addDialog.getByLabel('Account Holder Name').fill('A');
  await addDialog.getByLabel('Account Number', { exact: true }).fill('1234');
  await addDialog.getByLabel('Confirm Account Number').fill('1234');
  await addDialog.getByLabel('IFSC Code').fill('SBIN001');
  await addDialog.getByLabel('UPI ID (optional)').fill('not-a-upi');
  await addDialog.getByRole('button', { name: 'Add Account' }).click();
  await expect(addDialog.getByText('Account holder name must be at least 2 characters.')).toBeVisible();
  await expect(addDialog.getByText('Account number must be at least 9 characters.')).toBeVisible();
  await expect(addDialog.getByText('IFSC code must be 11 characters.')).toBeVisible();
  await expect(addDialog.getByText(BANK_ACCOUNT_MESSAGES.upiShape)).toBeVisible();

  await addDialog.getByLabel('IFSC Code').fill('SBIN1001234');
  await addDialog.getByRole('button', { name: 'Add Account' }).click();
  await expect(addDialog.getByText(BANK_ACCOUNT_MESSAGES.ifscShape)).toBeVisible();

  await addDialog.getByLabel('Account Holder Name').fill('Meera Iyer');
  await addDialog.getByLabel('Account Number', { exact: true }).fill('987654321');
  await addDialog.getByLabel('Confirm Account Number').fill('987654321');
  await addDialog.getByLabel('IFSC Code').fill('HDFC0001234');
  // The bank comes from the IFSC (decision 044), not typed; the branch from the IFSC API, here the e2e server's stand-in (decision 067).
  await expect(addDialog.getByTestId('ifsc-bank')).toContainText('HDFC Bank');
  await expect(addDialog.getByTestId('ifsc-bank')).toContainText('Branch: MUMBAI - ANDHERI EAST');
  await addDialog.getByLabel('UPI ID (optional)').fill('');
  await addDialog.getByRole('button', { name: 'Add Account' }).click();
  await expect(page.getByText(BANK_ACCOUNT_MESSAGES.added)).toBeVisible();
  await expect(page.getByText('•••• 4321')).toBeVisible();
  await expect(page.getByTestId('bank-account-bank')).toHaveText('HDFC Bank · Branch: MUMBAI - ANDHERI EAST');

  // The same number and IFSC again: said once, at the account number, and nothing is saved.
  await addBankAccountThroughForm(page, { holder: 'Meera Iyer', number: '987654321', bank: 'HDFC Bank', ifsc: 'hdfc0001234' }, { expectSaved: false });
  const againDialog = page.getByRole('dialog', { name: 'Add Bank Account' });
  await expect(againDialog.getByText(BANK_ACCOUNT_MESSAGES.duplicate)).toBeVisible();
  await expect(againDialog.getByLabel('Account Number', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(BANK_ACCOUNT_MESSAGES.duplicate)).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(againDialog).toBeHidden();
  await expect(page.getByText('•••• 4321')).toHaveCount(1);

  await page.getByRole('button', { name: 'Edit HDFC Bank ending in 4321' }).click();
  const editDialog = page.getByRole('dialog', { name: 'Edit Bank Account' });
  await expect(editDialog.getByLabel('Account Holder Name')).toHaveValue('Meera Iyer');
  await expect(editDialog.getByLabel('IFSC Code')).toHaveValue('HDFC0001234');
  await editDialog.getByLabel('Account Holder Name').fill('Meera S Iyer');
  await editDialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText(BANK_ACCOUNT_MESSAGES.updated)).toBeVisible();
  await expect(page.getByText('Meera S Iyer')).toBeVisible();
  await expect(page.getByText('•••• 4321')).toBeVisible();

  await page.getByRole('button', { name: 'Delete HDFC Bank ending in 4321' }).click();
  const confirmation = page.getByRole('alertdialog');
  await expect(confirmation.getByText(BANK_ACCOUNT_MESSAGES.deleteConfirmation, { exact: true })).toBeVisible();
  expect(BANK_ACCOUNT_MESSAGES.deleteConfirmation).toBe(
    'Are you absolutely sure? This action cannot be undone. This will permanently delete your bank account from our servers.',
  );
  await confirmation.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirmation).toBeHidden();
  await expect(page.getByText('Meera S Iyer')).toBeVisible();

  await page.getByRole('button', { name: 'Delete HDFC Bank ending in 4321' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(BANK_ACCOUNT_MESSAGES.deleted)).toBeVisible();
  await expect(page.getByText(BANK_ACCOUNT_MESSAGES.empty)).toBeVisible();
});

test('the referral page shares the invitation through the share sheet, and copies the link where there is none', async ({ page }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUpThroughForm(page, newCustomer());
  await page.goto('/referral-vip');
  const code = (await page.getByTestId('referral-code').textContent())?.trim() ?? '';
  const link = await page.getByRole('textbox', { name: 'Referral link' }).inputValue();
  expect(link).toContain(code);

  // Desktop Chromium on Linux has no share sheet: the link is copied instead.
  expect(await page.evaluate(() => typeof navigator.share)).toBe('undefined');
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Link Copied' })).toHaveCount(1);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  // A phone's share sheet receives the link and a line naming the code. Chromium here has none,
  // so the page gets one that records what it was given, as the phone's would receive it.
  await page.addInitScript(() => {
    const shared: ShareData[] = [];
    Object.assign(window, { sharedForTest: shared });
    Object.defineProperty(navigator, 'share', { value: (data: ShareData) => (shared.push(data), Promise.resolve()) });
  });
  await page.reload();
  await page.evaluate(() => navigator.clipboard.writeText('nothing copied'));
  await page.getByRole('button', { name: 'Share' }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { sharedForTest: ShareData[] }).sharedForTest))
    .toEqual([{ title: 'Rupeedesk', text: `Join me on Rupeedesk with my referral code ${code}.`, url: link }]);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('nothing copied');
});
