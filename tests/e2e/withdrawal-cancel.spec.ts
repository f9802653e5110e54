import { expect, test } from '@playwright/test';
import { addBankAccountAs, requestWithdrawalAs, submitDepositAs } from './support/admin-api.ts';
import { openAdminAndCustomer, type AdminAndCustomer } from './support/admin-and-customer.ts';

// Decision 044: the customer cancels a pending withdrawal from its page; the USDT is back at once and
// the admin's list shows it as cancelled by the customer.
test.use({ viewport: { width: 1366, height: 900 } });
// It signs two browsers in and funds the customer first, which takes a while on a busy machine.
test.setTimeout(180_000);

let opened: AdminAndCustomer;

test.afterAll(async () => {
  await opened?.close();
});

test('a customer cancels a pending withdrawal after confirming, and sees what came back to the wallet', async ({ browser }) => {
  opened = await openAdminAndCustomer(browser, { customer: { name: 'Kavya Cancelwala', phone: '+919822334455' } });
  const { adminApi, adminPage, customerPage, customer } = opened;
  const funding = await submitDepositAs(customerPage, '100');
  await adminApi.approveDeposit(funding.id);
  const bankAccountId = await addBankAccountAs(customerPage, {
    accountHolderName: 'Kavya Cancelwala',
    accountNumber: '667788990011',
    accountNumberConfirmation: '667788990011',
    ifscCode: 'HDFC0000001',
    upiId: null,
  });
  const withdrawal = await requestWithdrawalAs(customerPage, { amount: '25', bankAccountId, pin: customer.pin });

  await customerPage.goto(`/wallet/transactions/withdrawal/${withdrawal.id}`);
  await expect(customerPage.getByText('You receive')).toBeVisible();
  await customerPage.getByRole('button', { name: 'Cancel withdrawal' }).click();
  const confirm = customerPage.getByRole('alertdialog', { name: 'Cancel withdrawal?' });
  await expect(confirm).toContainText('The USDT held for it goes back to your wallet at once.');
  // Keeping it changes nothing.
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(confirm).toBeHidden();
  await customerPage.getByRole('button', { name: 'Cancel withdrawal' }).click();
  await customerPage.getByRole('alertdialog', { name: 'Cancel withdrawal?' }).getByRole('button', { name: 'Yes, cancel it' }).click();

  await expect(customerPage.getByText('Withdrawal cancelled. The USDT is back in your wallet.')).toBeVisible();
  await expect(customerPage.getByRole('button', { name: 'Cancel withdrawal' })).toBeHidden();
  const timeline = customerPage.getByRole('list', { name: 'Status timeline' });
  await expect(timeline).toContainText('Cancelled by you');
  await expect(customerPage.getByText('Returned to your wallet').first()).toBeVisible();
  await expect(customerPage.getByText('You receive')).toBeHidden();
  await expect(customerPage.getByText('25.00 USDT').first()).toBeVisible();

  await customerPage.goto('/wallet');
  await expect(customerPage.getByTestId('wallet-balance')).toContainText('100.00');

  await adminPage.goto('/admin/transactions?tab=withdrawals&status=all');
  const row = adminPage.getByRole('row').filter({ hasText: customer.name });
  await expect(row.first()).toContainText('Cancelled by customer');
  // The withdrawals' status filter has every status a withdrawal can have, cancelled included.
  await adminPage.getByLabel('Status').selectOption('Cancelled');
  await expect(adminPage).toHaveURL(/status=cancelled/);
  await expect(row.first()).toContainText('Cancelled by customer');
  await expect(adminPage.getByLabel('Status').locator('option')).toHaveText(['All statuses', 'Pending', 'Processing', 'Approved', 'Rejected', 'Cancelled']);
});
