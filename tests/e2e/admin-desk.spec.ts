import fs from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { submitDepositAs } from './support/admin-api.ts';
import { E2E_ADMIN_EMAIL } from './support/constants.ts';
import type { NewCustomer } from './support/helpers.ts';
import { openAdminAndCustomer, type AdminAndCustomer } from './support/admin-and-customer.ts';
import { expectNoSidewaysScroll, expectWhollyShown } from './support/layout.ts';

// The admin desk (issue 13, items 6 to 8): at 1366 px a side navigation of real links, full-width
// tables, copy buttons and A/R shortcuts on the focused queue row, the operator's dashboard and the
// audit log search; at 390 px the phone layout (bottom bar, cards) still works. One admin browser
// whose window is resized between the two sizes: logins are rate limited.
test.describe.configure({ mode: 'serial' });

const DESK = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };
const DESK_LINKS = ['Dashboard', 'Users', 'KYC', 'Transactions', 'Payouts', 'Payee review', 'Settings', 'Audit log', 'Reconciliation', 'Deposit keys'];

let adminPage: Page;
let customerPage: Page;
let customer: NewCustomer;

let opened: AdminAndCustomer;

test.beforeAll(async ({ browser }) => {
  opened = await openAdminAndCustomer(browser, {
    adminViewport: DESK,
    clipboard: true,
    customer: { name: 'Devika Deskwright', phone: '+919822334455' },
    kycLevelOne: false,
  });
  ({ adminPage, customerPage, customer } = opened);
});

test.afterAll(async () => {
  await opened?.close();
});

function toast(page: Page, text: string) {
  return page.getByRole('region', { name: /Notifications/ }).getByText(text, { exact: true });
}

const deskNavigation = () => adminPage.getByRole('navigation', { name: 'Admin' });
const bottomBar = () => adminPage.getByRole('navigation', { name: 'Main' });

test('at 1366 px the admin area is a desk: side navigation of real links, the dashboard, no bottom bar', async () => {
  await adminPage.setViewportSize(DESK);
  await adminPage.goto('/admin');
  await expect(deskNavigation()).toBeVisible();
  await expect(bottomBar()).toBeHidden();
  await expect(deskNavigation().getByRole('link')).toHaveText(DESK_LINKS);
  await expect(deskNavigation().getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');

  // The operator's figures: queues with their age, today, the books and the batches in progress.
  await expect(adminPage.getByText('Pending deposits')).toBeVisible();
  await expect(adminPage.getByText('In payout batches')).toBeVisible();
  await expect(adminPage.getByRole('heading', { name: /^Today in India/ })).toBeVisible();
  await expect(adminPage.getByTestId('books').getByRole('status')).toHaveText('Books balance');
  await expect(adminPage.getByRole('heading', { name: 'Payout batches in progress' })).toBeVisible();

  // Every link is a real link that opens its page; the current one is marked.
  const paths = [
    '/admin',
    '/admin/users',
    '/admin/kyc',
    '/admin/transactions',
    '/admin/payouts',
    '/admin/payees',
    '/admin/settings',
    '/admin/audit-log',
    '/admin/reconciliation',
    '/admin/deposit-keys',
  ];
  for (const [index, label] of DESK_LINKS.entries()) {
    await expect(deskNavigation().getByRole('link', { name: label })).toHaveAttribute('href', paths[index] ?? '');
  }
  await deskNavigation().getByRole('link', { name: 'Users' }).click();
  await expect(adminPage).toHaveURL(/\/admin\/users$/);
  await expect(deskNavigation().getByRole('link', { name: 'Users' })).toHaveAttribute('aria-current', 'page');
  // The content uses the width beside the navigation.
  const mainWidth = await adminPage.locator('main').evaluate((element) => element.getBoundingClientRect().width);
  expect(mainWidth).toBeGreaterThan(1000);
  await expectNoSidewaysScroll(adminPage);
});

test('at 1366 px a focused queue row takes A and R, each asking first; hashes copy with one click', async () => {
  await adminPage.setViewportSize(DESK);
  const deposit = await submitDepositAs(customerPage, '42');
  await deskNavigation().getByRole('link', { name: 'Transactions' }).click();
  await expect(adminPage.getByRole('heading', { name: 'USDT Deposits' })).toBeVisible();
  const row = adminPage.getByTestId(`deposit-${deposit.id}`);
  await expect(row).toContainText(customer.email);

  await row.getByRole('button', { name: 'Copy Transaction hash' }).click();
  await expect(toast(adminPage, 'Transaction hash copied')).toBeVisible();
  expect(await adminPage.evaluate(() => navigator.clipboard.readText())).toBe(deposit.transactionHash);

  await row.focus();
  await adminPage.keyboard.press('a');
  const approve = adminPage.getByRole('alertdialog', { name: 'Approve deposit?' });
  await expect(approve).toContainText('Credit 42.00 USDT to Devika Deskwright');
  await adminPage.keyboard.press('Escape');
  await expect(approve).toBeHidden();
  await expect(row).toContainText('Pending');

  await row.focus();
  await adminPage.keyboard.press('r');
  const reject = adminPage.getByRole('alertdialog', { name: 'Reject deposit?' });
  await reject.getByLabel('Reason (optional)').fill('No such transfer reached the wallet');
  await reject.getByRole('button', { name: 'Reject deposit' }).click();
  await expect(toast(adminPage, 'Deposit rejected')).toBeVisible();
  await expect(row).toContainText('Rejected');
  // A decided row takes no shortcut.
  await row.focus();
  await adminPage.keyboard.press('a');
  await expect(adminPage.getByRole('alertdialog')).toHaveCount(0);
});

test('at 1366 px the audit log is searched by the customer’s name, reads as words, and exports the filter as CSV', async () => {
  await adminPage.setViewportSize(DESK);
  await deskNavigation().getByRole('link', { name: 'Audit log' }).click();
  await adminPage.getByLabel('Search by name or e-mail').fill('deskwright');
  await expect(adminPage).toHaveURL(/q=deskwright/);
  const entries = adminPage.getByRole('list', { name: 'Audit log, newest first' }).getByRole('listitem');
  await expect(entries).toHaveCount(1);
  const entry = entries.first();
  await expect(entry).toContainText('Deposit rejected');
  await expect(entry).toContainText(`Devika Deskwright (${customer.email})`);
  await expect(entry).toContainText(E2E_ADMIN_EMAIL);
  await expect(entry.locator('[data-tone]')).toHaveAttribute('data-tone', 'rejection');
  await expect(entry.locator('[data-field="status"]')).toContainText('Status');
  await expect(entry.locator('[data-field="status"]')).toContainText('Before: Pending');
  await expect(entry.locator('[data-field="status"]')).toContainText('After: Rejected');
  await expect(entry.locator('[data-field="reason"]')).toContainText('No such transfer reached the wallet');

  // An action filter that matches nothing for this customer, then back.
  await adminPage.getByLabel('Action').selectOption('deposit.approve');
  await expect(adminPage.getByText('No audit log entries found')).toBeVisible();
  await adminPage.getByLabel('Action').selectOption('');
  await expect(entries).toHaveCount(1);

  const [download] = await Promise.all([adminPage.waitForEvent('download'), adminPage.getByRole('link', { name: 'Export CSV' }).click()]);
  const csv = await fs.readFile(await download.path(), 'utf8');
  const lines = csv.trimEnd().split('\r\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain('"deposit.reject"');
  expect(lines[1]).toContain(`"${customer.email}"`);
});

test('at 390 px the admin pages keep the bottom bar and their cards, without sideways scrolling', async () => {
  await adminPage.setViewportSize(PHONE);
  await adminPage.goto('/admin');
  await expect(bottomBar()).toBeVisible();
  await expect(deskNavigation()).toBeHidden();
  await expect(adminPage.getByTestId('books').getByRole('status')).toHaveText('Books balance');
  await expectNoSidewaysScroll(adminPage, 'the dashboard');

  await adminPage.getByRole('link', { name: /Transaction Management/ }).click();
  await expect(adminPage.getByRole('heading', { name: 'USDT Deposits' })).toBeVisible();
  // The longest admin title, beside the header's three actions, wraps rather than losing its end.
  await expect(adminPage.getByRole('banner').getByRole('heading', { level: 1 })).toHaveText('Transaction Management');
  await expectWhollyShown(adminPage.getByRole('banner').getByRole('heading', { level: 1 }), 'the title');
  // Rows are cards here (a grid of labelled cells), not table rows.
  const firstRow = adminPage.getByRole('region', { name: 'USDT Deposits' }).locator('tbody tr').first();
  await expect(firstRow).toBeVisible();
  expect(await firstRow.evaluate((element) => getComputedStyle(element).display)).toBe('grid');
  await expectNoSidewaysScroll(adminPage, 'the transactions page');

  await adminPage.goto('/admin/payouts');
  await expect(adminPage.getByRole('button', { name: 'New batch' })).toBeVisible();
  await expectNoSidewaysScroll(adminPage, 'the payouts page');

  await adminPage.goto('/admin/audit-log');
  await adminPage.getByLabel('Search by name or e-mail').fill(customer.email);
  const entries = adminPage.getByRole('list', { name: 'Audit log, newest first' }).getByRole('listitem');
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText('Deposit rejected');
  await expectNoSidewaysScroll(adminPage, 'the audit log');

  await bottomBar().getByRole('link', { name: 'Admin' }).click();
  await expect(adminPage).toHaveURL(/\/admin$/);
});
