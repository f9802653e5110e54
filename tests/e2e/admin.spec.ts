import { expect, test, type Page } from '@playwright/test';
import { USER_UPDATED_MESSAGE } from '#shared/contracts/admin';
import { meResponseSchema } from '#shared/contracts/auth';
import { KNOWN_TRON_ADDRESS, TEST_TRC20_ADDRESS } from '../fixtures/addresses.ts';
import { qrPng } from '../fixtures/qr-images.ts';
import { addBankAccountAs, requestWithdrawalAs, submitDepositAs, type AdminApi } from './support/admin-api.ts';
import { E2E_ADMIN_EMAIL } from './support/constants.ts';
import type { NewCustomer } from './support/helpers.ts';
import { openAdminAndCustomer, type AdminAndCustomer } from './support/admin-and-customer.ts';

// One admin browser and one customer browser side by side (two contexts), shared by the tests
// in order: logins and sign-ups are rate limited, so each happens once per file.
test.describe.configure({ mode: 'serial' });

let adminApi: AdminApi;
let adminPage: Page;
let customerPage: Page;
let customer: NewCustomer;

let opened: AdminAndCustomer;

test.beforeAll(async ({ browser }) => {
  opened = await openAdminAndCustomer(browser, { customer: { name: 'Kavya Menon', phone: '+919900112233' } });
  ({ adminApi, adminPage, customerPage, customer } = opened);
});

test.afterAll(async () => {
  await opened?.close();
});

/**
 * The header's Refresh, pressed with the keyboard: on a phone-sized screen the previous
 * 'Dashboard data refreshed' toast lies over the header buttons and swallows pointer clicks.
 */
async function refreshCustomerHeader() {
  await customerPage.getByRole('banner').getByRole('button', { name: 'Refresh', exact: true }).press('Enter');
}

function toast(page: Page, text: string) {
  return page.getByRole('region', { name: /Notifications/ }).getByText(text, { exact: true });
}

test('the admin approves a customer deposit on the Transactions page and the customer sees the balance', async () => {
  await expect(customerPage.getByTestId('balance-chip')).toHaveText('0.00 USDT');
  const deposit = await submitDepositAs(customerPage, '25.5');
  const lateDeposit = await submitDepositAs(customerPage, '12');

  await adminPage.goto('/admin');
  await expect(adminPage.getByText('Pending deposits')).toBeVisible();
  await adminPage.getByRole('link', { name: /Transaction Management/ }).click();
  await expect(adminPage).toHaveURL(/\/admin\/transactions$/);
  await expect(adminPage.getByRole('heading', { name: 'USDT Deposits' })).toBeVisible();

  const row = adminPage.getByTestId(`deposit-${deposit.id}`);
  await expect(row).toContainText(customer.email);
  await expect(row).toContainText(deposit.transactionHash);
  await expect(row).toContainText('25.50 USDT');
  await expect(row).toContainText('Pending');
  await row.getByRole('button', { name: 'Approve' }).click();
  const dialog = adminPage.getByRole('alertdialog', { name: 'Approve deposit?' });
  await expect(dialog).toContainText('Credit 25.50 USDT to Kavya Menon');
  await dialog.getByRole('button', { name: 'Approve deposit' }).click();
  await expect(toast(adminPage, 'Deposit approved successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Approved');
  await expect(row.getByRole('button', { name: 'Approve' })).toHaveCount(0);

  await refreshCustomerHeader();
  await expect(customerPage.getByTestId('balance-chip')).toHaveText('25.50 USDT');

  // The admin's own deposit: no buttons to press, and why (another admin must decide it).
  const own = await submitDepositAs(adminPage, '10');
  await adminPage.reload();
  const ownRow = adminPage.getByTestId(`deposit-${own.id}`);
  await expect(ownRow.getByRole('button', { name: 'Approve' })).toBeDisabled();
  await expect(ownRow.getByRole('button', { name: 'Reject' })).toBeDisabled();
  await expect(ownRow).toContainText('Your own request: another admin must decide it.');

  // Another admin decides first: the late approval shows the server's 409 message and the row refreshes.
  const lateRow = adminPage.getByTestId(`deposit-${lateDeposit.id}`);
  await lateRow.getByRole('button', { name: 'Approve' }).click();
  await adminApi.rejectDeposit(lateDeposit.id, 'Decided by another admin');
  await adminPage.getByRole('alertdialog', { name: 'Approve deposit?' }).getByRole('button', { name: 'Approve deposit' }).click();
  await expect(toast(adminPage, 'Failed to approve deposit')).toBeVisible();
  await expect(toast(adminPage, 'This deposit has already been rejected.')).toBeVisible();
  await expect(lateRow).toContainText('Rejected');
  await expect(lateRow).toContainText('Reason: Decided by another admin');

  // The status filter.
  await adminPage.getByLabel('Status').selectOption('pending');
  await expect(adminPage).toHaveURL(/status=pending/);
  await expect(row).toHaveCount(0);
  await adminPage.getByLabel('Status').selectOption('approved');
  await expect(row).toHaveCount(1);
});

test('the admin rejects a withdrawal with a reason; the customer gets the USDT back and sees the reason', async () => {
  // Funds of its own, so this test does not depend on the previous one; it starts from whatever balance that one left.
  const startingBalance = await customerBalanceMicros();
  const funding = await submitDepositAs(customerPage, '100');
  await adminApi.approveDeposit(funding.id);
  const fundedBalance = startingBalance + usdtMicros('100');
  expect(await customerBalanceMicros()).toBe(fundedBalance);
  await refreshCustomerHeader();
  const balanceChip = customerPage.getByTestId('balance-chip');
  await expect(balanceChip).toHaveText(chipText(fundedBalance));

  const bankAccountId = await addBankAccountAs(customerPage, {
    accountHolderName: 'Kavya Menon',
    accountNumber: '987654321012',
    bankName: 'HDFC Bank',
    ifscCode: 'HDFC0001234',
    upiId: 'kavya@okhdfc',
  });
  const rejected = await requestWithdrawalAs(customerPage, { amount: '40', bankAccountId, pin: customer.pin });
  const approved = await requestWithdrawalAs(customerPage, { amount: '10', bankAccountId, pin: customer.pin });

  await adminPage.goto('/admin/transactions?tab=withdrawals&status=pending');
  await expect(adminPage.getByRole('heading', { name: 'INR Withdrawals' })).toBeVisible();
  await expect(adminPage.getByRole('button', { name: 'Create payout batch (CSV)' })).toBeVisible();
  const rows = adminPage.getByRole('row').filter({ hasText: customer.email });
  await expect(rows).toHaveCount(2);
  // Admins see the full account number, holder, bank, IFSC and UPI.
  await expect(rows.first()).toContainText('987654321012');
  await expect(rows.first()).toContainText('HDFC Bank');
  await expect(rows.first()).toContainText('HDFC0001234');
  await expect(rows.first()).toContainText('kavya@okhdfc');

  // Newest first: the 10 USDT withdrawal is on top. Approve it with the bank's UTR.
  await adminPage.getByLabel('Status').selectOption('all');
  await adminPage.getByTestId(`withdrawal-${approved.id}`).getByRole('button', { name: 'Approve' }).click();
  const approveDialog = adminPage.getByRole('alertdialog', { name: 'Approve withdrawal?' });
  // Without a payout provider the approve records a payment made by hand: the UTR is required, of its rail's form (decision 049).
  await approveDialog.getByRole('button', { name: 'Approve withdrawal' }).click();
  await expect(approveDialog.getByText('Enter the UTR of the bank payment to mark this withdrawal paid.')).toBeVisible();
  const utrField = approveDialog.getByLabel('Bank payout reference (UTR)');
  await utrField.fill('UTR2026 0001');
  await approveDialog.getByRole('button', { name: 'Approve withdrawal' }).click();
  await expect(approveDialog.getByText('A UPI UTR (RRN) has 12 digits.')).toBeVisible();
  const utr = String(100_000_000_000 + Math.floor(Math.random() * 800_000_000_000));
  await utrField.fill(utr);
  await approveDialog.getByRole('button', { name: 'Approve withdrawal' }).click();
  await expect(toast(adminPage, 'Withdrawal approved successfully')).toBeVisible();
  await expect(adminPage.getByText(`UTR: ${utr}`)).toBeVisible();

  await adminPage.getByTestId(`withdrawal-${rejected.id}`).getByRole('button', { name: 'Reject' }).click();
  const rejectDialog = adminPage.getByRole('alertdialog', { name: 'Reject withdrawal?' });
  await expect(rejectDialog).toContainText('40.00 USDT');
  await rejectDialog.getByLabel('Reason (optional)').fill('Account name does not match the bank records');
  await rejectDialog.getByRole('button', { name: 'Reject withdrawal' }).click();
  await expect(toast(adminPage, 'Withdrawal rejected')).toBeVisible();
  await expect(adminPage.getByText('Reason: Account name does not match the bank records')).toBeVisible();
  await expect(adminPage.getByRole('row').filter({ hasText: customer.email }).getByRole('button', { name: 'Reject' })).toHaveCount(0);

  // The customer: 40 USDT back (the 10 USDT paid out stay gone), and the reason in the history.
  await customerPage.goto('/wallet/history');
  await refreshCustomerHeader();
  const expectedBalance = fundedBalance - usdtMicros('10');
  await expect(balanceChip).toHaveText(chipText(expectedBalance));
  expect(await customerBalanceMicros()).toBe(expectedBalance);
  const rejectedRow = customerPage.getByRole('tabpanel').getByRole('row').filter({ hasText: 'Rejected' }).filter({ hasText: 'Withdrawal' });
  await expect(rejectedRow).toHaveCount(1);
  await expect(rejectedRow).toContainText('Reason: Account name does not match the bank records');
  expect(rejected.amountUsdt).toBe('40.000000');
});

test('the admin makes the customer VIP on the user page; the VIP customer sees settings read only', async () => {
  await adminPage.goto('/admin/users');
  await adminPage.getByLabel('Search users').fill(customer.email.toUpperCase());
  const userRow = adminPage.getByRole('row').filter({ hasText: customer.email });
  await expect(userRow).toHaveCount(1);
  await expect(adminPage.getByRole('row')).toHaveCount(2);
  await expect(userRow).toContainText(customer.phone);
  await expect(userRow).toContainText('Normal');
  await userRow.getByRole('link', { name: 'Details' }).click();
  await expect(adminPage).toHaveURL(/\/admin\/users\/[0-9a-f-]{36}$/);
  const userId = adminPage.url().split('/').pop() ?? '';

  await expect(adminPage.getByRole('heading', { name: customer.name })).toBeVisible();
  await adminPage.getByLabel('VIP Level').selectOption('vip');
  await adminPage.getByRole('button', { name: 'Save changes' }).click();
  const confirm = adminPage.getByRole('alertdialog', { name: "Change this user's access?" });
  await expect(confirm).toContainText('VIP level: Normal → VIP');
  await confirm.getByRole('button', { name: 'Confirm change' }).click();
  await expect(toast(adminPage, USER_UPDATED_MESSAGE)).toBeVisible();
  await expect(adminPage.getByLabel('VIP Level')).toHaveValue('vip');

  // The audit log records it, with before and after.
  await adminPage.getByRole('link', { name: 'Audit log for this user' }).click();
  await expect(adminPage).toHaveURL(new RegExp(`/admin/audit-log\\?targetUserId=${userId}$`));
  const entry = adminPage.getByRole('listitem').filter({ hasText: 'User role or VIP level changed' }).first();
  await expect(entry).toContainText(E2E_ADMIN_EMAIL);
  await expect(entry.locator('[data-field="vipLevel"]')).toContainText('Before: Normal');
  await expect(entry.locator('[data-field="vipLevel"]')).toContainText('After: VIP');

  // The customer, now VIP, opens the admin area read only: the spec's rates, addresses and app
  // download from the public settings, and none of the operator's figures (decision 040).
  const adminRequests: string[] = [];
  customerPage.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/admin')) adminRequests.push(request.url());
  });
  await customerPage.goto('/admin/settings');
  await expect(customerPage.getByText('only admins can change settings')).toBeVisible();
  await expect(customerPage.getByText('Normal Rate (INR per USDT)')).toBeVisible();
  await expect(customerPage.getByRole('button', { name: 'Save All Settings' })).toHaveCount(0);
  await expect(customerPage.getByRole('tab', { name: 'Support' })).toHaveCount(0);
  await expect(customerPage.getByRole('tab', { name: 'Withdrawals & TDS' })).toHaveCount(0);
  await expect(customerPage.getByText('Large withdrawal (INR)')).toHaveCount(0);
  await customerPage.getByRole('tab', { name: 'Wallet Addresses' }).click();
  await expect(customerPage.getByText('TRC20 Wallet Address')).toBeVisible();
  await customerPage.getByRole('tab', { name: 'App Download' }).click();
  await expect(customerPage.getByText('No app file has been uploaded.')).toBeVisible();

  await customerPage.goto('/admin');
  await expect(customerPage.getByRole('link', { name: /Admin Settings/ })).toBeVisible();
  const main = customerPage.getByRole('main');
  for (const figure of [
    'Pending deposits',
    'Pending withdrawals',
    'Paid out today',
    'Credited today',
    'Books',
    'Customer wallets',
    'Payout batches in progress',
  ]) {
    await expect(main.getByText(figure), figure).toHaveCount(0);
  }
  await expect(customerPage.getByRole('link', { name: /User Management/ })).toHaveCount(0);
  await expect(customerPage.getByRole('link', { name: /Audit Log/ })).toHaveCount(0);
  // The bottom bar's Admin and Upload are the admin role's.
  const bottomBar = customerPage.getByRole('navigation', { name: 'Main' });
  await expect(bottomBar.getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(bottomBar.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await expect(bottomBar.getByRole('link', { name: 'Upload' })).toHaveCount(0);
  expect(adminRequests).toEqual([]);
  // And the API refuses the figures outright.
  for (const path of ['/api/admin/dashboard', '/api/admin/settings', '/api/admin/deposits?status=pending', '/api/admin/users', '/api/admin/audit-log']) {
    expect((await customerPage.request.get(path)).status(), path).toBe(403);
  }
  await customerPage.goto('/admin/users');
  await expect(customerPage).toHaveURL(/\/dashboard$/);
  await expect(toast(customerPage, 'Access denied')).toBeVisible();
});

test('settings: invalid values are shown next to their fields; saving answers with the spec toast', async () => {
  await adminPage.goto('/admin/settings');
  const saveButton = adminPage.getByRole('button', { name: 'Save All Settings' });
  await expect(saveButton).toBeEnabled();

  await adminPage.getByLabel('Normal Rate (INR per USDT)').fill('0');
  await saveButton.click();
  await expect(adminPage.getByRole('tabpanel', { name: /Exchange Rates/ }).getByText('Normal rate must be greater than 0')).toBeVisible();
  await expect(toast(adminPage, 'Failed to update settings')).toBeVisible();
  await adminPage.reload();

  // A TRON address of the right shape whose checksum is wrong: only the server can tell.
  await adminPage.getByRole('tab', { name: 'Wallet Addresses' }).click();
  await adminPage.getByLabel('TRC20 Wallet Address').fill('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u');
  await saveButton.click();
  const addressesPanel = adminPage.getByRole('tabpanel', { name: /Wallet Addresses/ });
  await expect(addressesPanel.getByText(/TRC20 address is not a valid TRON address/)).toBeVisible();
  await expect(adminPage.getByLabel('TRC20 Wallet Address')).toHaveAttribute('aria-invalid', 'true');
  await expect(toast(adminPage, 'Failed to update settings')).toBeVisible();
  await adminPage.reload();

  await adminPage.getByRole('tab', { name: 'Support' }).click();
  const websiteUrl = adminPage.getByLabel('Website URL');
  const originalWebsiteUrl = await websiteUrl.inputValue();
  await websiteUrl.fill('https://rupeedesk.example.com');
  await saveButton.click();
  await expect(toast(adminPage, 'Settings updated successfully')).toBeVisible();
  await expect(saveButton).toHaveText('Save All Settings');
  await adminPage.reload();
  await adminPage.getByRole('tab', { name: 'Support' }).click();
  await expect(websiteUrl).toHaveValue('https://rupeedesk.example.com');

  // Other test files read the public settings: put the original back.
  await websiteUrl.fill(originalWebsiteUrl);
  // From the keyboard: on a phone the failure's toasts sit at the bottom, over the button, until they time out.
  await saveButton.press('Enter');
  await expect(toast(adminPage, 'Settings updated successfully')).toBeVisible();
  await expect(saveButton).toHaveText('Save All Settings');
});

test("settings: a save over another admin's change is refused, and the page reloads the current values", async () => {
  const { websiteUrl: originalWebsiteUrl } = await adminApi.updateSettings({});
  await adminPage.goto('/admin/settings');
  const saveButton = adminPage.getByRole('button', { name: 'Save All Settings' });
  await expect(saveButton).toBeEnabled();
  await adminPage.getByRole('tab', { name: 'Support' }).click();
  const websiteUrl = adminPage.getByLabel('Website URL');
  await expect(websiteUrl).toHaveValue(originalWebsiteUrl);
  await websiteUrl.fill('https://mine.example.com');

  // Another admin saves while this form has unsaved edits.
  await adminApi.updateSettings({ websiteUrl: 'https://other.example.com' });
  await saveButton.click();
  await expect(toast(adminPage, 'Failed to update settings')).toBeVisible();
  await expect(
    toast(adminPage, 'Settings were changed by another admin meanwhile. Reload to see the current values, then apply your change again.'),
  ).toBeVisible();
  await expect(websiteUrl).toHaveValue('https://other.example.com');
  expect((await adminApi.updateSettings({})).websiteUrl).toBe('https://other.example.com');

  // Saving again from the reloaded values works. Other test files read the public settings: put the original back.
  await websiteUrl.fill(originalWebsiteUrl);
  // From the keyboard: on a phone the failure's toasts sit at the bottom, over the button, until they time out.
  await saveButton.press('Enter');
  await expect(toast(adminPage, 'Settings updated successfully')).toBeVisible();
  await expect(saveButton).toHaveText('Save All Settings');
  expect((await adminApi.updateSettings({})).websiteUrl).toBe(originalWebsiteUrl);
});

test('settings: a QR image is checked, previewed and uploaded per network, and only a picture of the address is kept', async () => {
  const address = await adminApi.ensureTrc20DepositAddress();
  const otherAddress = address === KNOWN_TRON_ADDRESS ? TEST_TRC20_ADDRESS : KNOWN_TRON_ADDRESS;
  await adminPage.goto('/admin/settings');
  await adminPage.getByRole('tab', { name: 'Wallet Addresses' }).click();
  const group = adminPage.getByRole('group', { name: 'TRC20 QR code image' });
  await expect(group).toContainText('A picture of the saved TRC20 address (PNG or JPEG). It is read on upload, and set aside when the address changes');
  const picker = group.getByLabel(/^(Choose|Replace) TRC20 QR code image$/);
  await picker.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
  await expect(adminPage.getByText('The QR image must be a PNG or JPEG image')).toBeVisible();

  await picker.setInputFiles({ name: 'other-qr.png', mimeType: 'image/png', buffer: await qrPng(otherAddress) });
  await group.getByRole('button', { name: 'Upload' }).click();
  await expect(group.getByRole('alert')).toHaveText(
    `This QR code shows "${otherAddress}", not the TRC20 deposit address ${address}. Customers would send USDT there, so it was not saved.`,
  );

  await picker.setInputFiles({ name: 'trc20-qr.png', mimeType: 'image/png', buffer: await qrPng(address, { width: 240 }) });
  await expect(adminPage.getByRole('img', { name: 'New TRC20 QR code image (not uploaded yet)' })).toBeVisible();
  await group.getByRole('button', { name: 'Upload' }).click();
  await expect(toast(adminPage, 'File uploaded successfully')).toBeVisible();
  await expect(adminPage.getByRole('img', { name: 'Current TRC20 QR code image' })).toBeVisible();
  await expect(adminPage.getByRole('img', { name: 'Current TRC20 QR code image' })).toHaveJSProperty('naturalWidth', 240);
});

test('user transactions: the history of a user, and an unknown user', async () => {
  await adminPage.goto('/admin/users');
  await adminPage.getByLabel('Search users').fill(customer.name);
  const userRow = adminPage.getByRole('row').filter({ hasText: customer.email });
  await userRow.getByRole('button', { name: 'Transactions' }).click();
  await expect(adminPage).toHaveURL(/\/admin\/users\/[0-9a-f-]{36}\/transactions$/);
  await expect(adminPage.getByRole('heading', { name: customer.name })).toBeVisible();
  await expect(adminPage.getByText(customer.phone)).toBeVisible();
  const table = adminPage.getByRole('region', { name: `Transactions of ${customer.name}` });
  await expect(table.getByRole('columnheader')).toHaveText(['Type', 'Amount', 'Date', 'Status']);
  await expect(table.getByRole('row').filter({ hasText: 'Withdrawal' }).first()).toContainText('INR');
  // The withdrawal rejected in an earlier test carries its reason inline.
  const rejectedWithdrawal = table.getByRole('row').filter({ hasText: 'Withdrawal' }).filter({ hasText: 'Rejected' });
  await expect(rejectedWithdrawal).toHaveCount(1);
  await expect(rejectedWithdrawal).toContainText('Reason: Account name does not match the bank records');

  const unknownId = '00000000-0000-4000-8000-000000000000';
  await adminPage.goto(`/admin/users/${unknownId}/transactions`);
  await expect(adminPage.getByText('User Not Found')).toBeVisible();
  await expect(adminPage.getByText(`User with ID ${unknownId} was not found`)).toBeVisible();
});

const MICROS_PER_USDT = 1_000_000n;

/** Whole or decimal USDT ("100", "25.5") in micro-USDT. */
function usdtMicros(amount: string): bigint {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole) * MICROS_PER_USDT + BigInt(fraction.padEnd(6, '0').slice(0, 6));
}

/** The balance chip's text for a balance: two decimals (truncated), thousands separated, "USDT". */
function chipText(balanceMicros: bigint): string {
  const cents = balanceMicros / 10_000n;
  const whole = (cents / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${whole}.${(cents % 100n).toString().padStart(2, '0')} USDT`;
}

/** The customer's balance as the server has it now (GET /api/me with the customer's session). */
async function customerBalanceMicros(): Promise<bigint> {
  const response = await customerPage.request.get('/api/me');
  expect(response.ok(), `GET /api/me answered ${response.status()}`).toBe(true);
  return usdtMicros(meResponseSchema.parse(await response.json()).balanceUsdt);
}
