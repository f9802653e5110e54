import fs from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { addBankAccountAs, requestWithdrawalAs, submitDepositAs, type AdminApi } from './support/admin-api.ts';
import { E2E_ADMIN_EMAIL } from './support/constants.ts';
import type { NewCustomer } from './support/helpers.ts';
import { openAdminAndCustomer, type AdminAndCustomer } from './support/admin-and-customer.ts';

// The payout batch flow on the desk (issue 13, item 1), at a desktop width: the admin puts the pending
// withdrawals into a batch, downloads its bank file, uploads the bank's results, and the customer sees
// the payment with its UTR. Logins are rate limited, so each browser signs in once for the file.
test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1366, height: 900 } });

let adminApi: AdminApi;
let adminPage: Page;
let customerPage: Page;
let customer: NewCustomer;
let bankAccountId: string;

let opened: AdminAndCustomer;

test.beforeAll(async ({ browser }) => {
  const desk = { width: 1366, height: 900 };
  opened = await openAdminAndCustomer(browser, { adminViewport: desk, customerViewport: desk, customer: { name: 'Rohan Batchwala', phone: '+919811223344' } });
  ({ adminApi, adminPage, customerPage, customer } = opened);
  const funding = await submitDepositAs(customerPage, '300');
  await adminApi.approveDeposit(funding.id);
  bankAccountId = await addBankAccountAs(customerPage, {
    accountHolderName: 'Rohan Batchwala',
    accountNumber: '556677889900',
    bankName: 'ICICI Bank',
    ifscCode: 'ICIC0001122',
    upiId: 'rohan@okicici',
  });
});

test.afterAll(async () => {
  await opened?.close();
});

function toast(page: Page, text: string) {
  return page.getByRole('region', { name: /Notifications/ }).getByText(text, { exact: true });
}

/** Creates a batch of every pending withdrawal from the Payouts page and answers its id (from the address it opens). */
async function createBatchFromPayoutsPage(): Promise<string> {
  await adminPage.goto('/admin');
  await adminPage.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Payouts' }).click();
  await expect(adminPage).toHaveURL(/\/admin\/payouts$/);
  await expect(adminPage.getByTestId('pending-for-batch')).toContainText('waiting for a payout batch');
  await adminPage.getByRole('button', { name: 'New batch' }).click();
  await adminPage.getByRole('alertdialog', { name: 'Create a payout batch?' }).getByRole('button', { name: 'Create batch' }).click();
  await expect(toast(adminPage, 'Payout batch created')).toBeVisible();
  await expect(adminPage).toHaveURL(/\/admin\/payouts\/[0-9a-f-]{36}$/);
  return adminPage.url().split('/').pop() ?? '';
}

async function downloadBankFile(): Promise<string> {
  const [download] = await Promise.all([adminPage.waitForEvent('download'), adminPage.getByRole('link', { name: 'Download bank file (CSV)' }).click()]);
  const file = await download.path();
  return fs.readFile(file, 'utf8');
}

test('a batch is created, its bank file downloaded twice alike, the bank results uploaded, and the customer sees Paid with the UTR', async () => {
  const paid = await requestWithdrawalAs(customerPage, { amount: '20', bankAccountId, pin: customer.pin });
  const failed = await requestWithdrawalAs(customerPage, { amount: '30', bankAccountId, pin: customer.pin });

  const batchId = await createBatchFromPayoutsPage();
  const paidRow = adminPage.getByTestId(`batch-withdrawal-${paid.id}`);
  const failedRow = adminPage.getByTestId(`batch-withdrawal-${failed.id}`);
  await expect(paidRow).toContainText('Processing');
  await expect(paidRow).toContainText('556677889900');
  await expect(paidRow).toContainText('ICIC0001122');
  await expect(paidRow).toContainText('rohan@okicici');
  await expect(paidRow.getByRole('button', { name: 'Copy Account number' })).toBeVisible();
  await expect(adminPage.getByText(`${E2E_ADMIN_EMAIL}`)).toBeVisible();

  // The bank file: the same bytes on every download, with both withdrawals under their short references.
  // The first download issues it; the page then says when and by whom.
  await expect(adminPage.getByTestId('payout-file-issue')).toContainText('Not downloaded yet');
  const first = await downloadBankFile();
  // The download is a plain link: the page reads the batch again to show who issued the file.
  await adminPage.reload();
  await expect(adminPage.getByTestId('payout-file-issue')).toContainText(/Already downloaded at .+ by /);
  const second = await downloadBankFile();
  expect(second).toBe(first);
  expect(first.split('\r\n')[0]).toBe(
    '"Payment Mode","Beneficiary Name","Beneficiary Account Number","IFSC","Beneficiary UPI ID","Amount (INR)","Narration","Reference"',
  );
  expect(first).toContain(`"Rupeedesk ${paid.reference}"`);
  expect(first).toContain(`"Rupeedesk ${failed.reference}"`);
  expect(first).not.toContain(paid.id);
  await expect(paidRow).toContainText(paid.reference);

  // The bank's results as a CSV file, under the bank's own column names: one paid with its UTR, one failed with a reason.
  const results = [
    'Narration,Status,UTR Number,Failure Reason',
    `Rupeedesk ${paid.reference},Success,202611270001,`,
    `Rupeedesk ${failed.reference},Failed,,Beneficiary bank not reachable`,
  ].join('\r\n');
  const upload = () =>
    adminPage.getByLabel('Upload the bank’s results (CSV)').setInputFiles({ name: 'results.csv', mimeType: 'text/csv', buffer: Buffer.from(results) });
  await upload();
  // A preview first: nothing is applied until it is confirmed.
  const preview = adminPage.getByTestId('payout-results-preview');
  await expect(preview.getByTestId('preview-row-1')).toContainText('Will be marked paid');
  await expect(preview.getByTestId('preview-row-2')).toContainText('Will be refunded');
  await expect(paidRow).toContainText('Processing');
  await preview.getByRole('button', { name: 'Apply results' }).click();
  const answer = adminPage.getByTestId('payout-results');
  await expect(answer.getByTestId(`payout-result-${paid.id}`)).toContainText('Applied');
  await expect(answer.getByTestId(`payout-result-${failed.id}`)).toContainText('Applied');
  await expect(paidRow).toContainText('Approved');
  await expect(paidRow).toContainText('UTR: 202611270001');
  await expect(failedRow).toContainText('Rejected');
  await expect(failedRow).toContainText('Reason: Beneficiary bank not reachable');

  // The same file again applies nothing twice.
  await expect(adminPage.getByText('Completed', { exact: true })).toBeVisible();
  await upload();
  await expect(preview.getByTestId('preview-row-1')).toContainText('Already applied');
  await expect(preview.getByRole('button', { name: 'Apply results' })).toBeDisabled();
  await preview.getByRole('button', { name: 'Discard' }).click();
  await upload();
  await expect(preview.getByTestId('preview-row-2')).toContainText('Already applied');
  await preview.getByRole('button', { name: 'Discard' }).click();
  await expect(preview).toHaveCount(0);

  // The batch in the list, with who created it.
  await adminPage.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Payouts' }).click();
  const listed = adminPage.getByTestId(`payout-batch-${batchId}`);
  await expect(listed).toContainText(E2E_ADMIN_EMAIL);

  // The customer: Paid with the UTR on the withdrawal's page, and the failed one returned.
  await customerPage.goto(`/wallet/transactions/withdrawal/${paid.id}`);
  const timeline = customerPage.getByRole('list', { name: 'Status timeline' });
  await expect(timeline.getByRole('listitem').last()).toHaveText(/Paid.*202611270001/);
  await expect(customerPage.getByText('202611270001').first()).toBeVisible();
  await customerPage.goto(`/wallet/transactions/withdrawal/${failed.id}`);
  await expect(timeline.getByRole('listitem').last()).toHaveText(/Rejected.*Beneficiary bank not reachable/);
});

test('a batch can be cancelled while nothing is decided, and a row decided by hand', async () => {
  const withdrawal = await requestWithdrawalAs(customerPage, { amount: '10', bankAccountId, pin: customer.pin });
  await createBatchFromPayoutsPage();
  const row = adminPage.getByTestId(`batch-withdrawal-${withdrawal.id}`);
  await expect(row).toContainText('Processing');

  await adminPage.getByRole('button', { name: 'Cancel batch' }).click();
  await adminPage.getByRole('alertdialog', { name: 'Cancel this payout batch?' }).getByRole('button', { name: 'Cancel batch' }).click();
  await expect(toast(adminPage, 'Payout batch cancelled; its withdrawals are pending again.')).toBeVisible();
  await expect(adminPage.getByText('Cancelled', { exact: true })).toBeVisible();
  await expect(adminPage.getByRole('link', { name: 'Download bank file (CSV)' })).toHaveCount(0);

  // Pending again: the next batch takes it; this time its result is typed on its row.
  await createBatchFromPayoutsPage();
  const again = adminPage.getByTestId(`batch-withdrawal-${withdrawal.id}`);
  await again.getByRole('button', { name: 'Paid' }).click();
  await expect(again.getByText('A paid row needs the UTR of the payment.')).toBeVisible();
  await again.getByLabel('UTR').fill('UTR2026ROW0001');
  await again.getByRole('button', { name: 'Paid' }).click();
  await expect(again.getByText('A UPI UTR (RRN) has 12 digits.')).toBeVisible();
  await again.getByLabel('UTR').fill('202611270002');
  await again.getByRole('button', { name: 'Paid' }).click();
  await expect(adminPage.getByTestId(`payout-result-${withdrawal.id}`)).toContainText('Applied');
  await expect(again).toContainText('UTR: 202611270002');
  await expect(adminPage.getByRole('button', { name: 'Cancel batch' })).toHaveCount(0);
});

test('an admin chooses withdrawals with filters and makes a batch of only the chosen one', async () => {
  const chosen = await requestWithdrawalAs(customerPage, { amount: '11', bankAccountId, pin: customer.pin });
  const left = await requestWithdrawalAs(customerPage, { amount: '12', bankAccountId, pin: customer.pin });

  await adminPage.goto('/admin/payouts');
  await adminPage.getByRole('link', { name: 'Choose withdrawals' }).click();
  await expect(adminPage).toHaveURL(/\/admin\/payouts\/new$/);
  const smallest = adminPage.getByLabel('Smallest amount (₹)');
  await smallest.fill('abc');
  await expect(smallest).toHaveAccessibleDescription('The smallest amount must be an amount in rupees, like 25000 or 25000.50.');
  await smallest.fill('');
  await adminPage.getByLabel('Bank').fill('ICICI');
  const chosenRow = adminPage.getByTestId(`candidate-${chosen.id}`);
  await expect(chosenRow).toBeVisible();
  await expect(adminPage.getByTestId(`candidate-${left.id}`)).toBeVisible();
  await adminPage.getByLabel('Bank').fill('HDFC');
  await expect(chosenRow).toHaveCount(0);
  await adminPage.getByLabel('Bank').fill('ICICI');
  await chosenRow.getByRole('checkbox').check();
  await expect(adminPage.getByTestId('chosen-summary')).toContainText('1 chosen');
  await adminPage.getByRole('button', { name: 'Create batch of 1' }).click();
  await adminPage.getByRole('alertdialog', { name: 'Create a payout batch?' }).getByRole('button', { name: 'Create batch' }).click();
  await expect(toast(adminPage, 'Payout batch created')).toBeVisible();
  await expect(adminPage).toHaveURL(/\/admin\/payouts\/[0-9a-f-]{36}$/);
  await expect(adminPage.getByTestId(`batch-withdrawal-${chosen.id}`)).toContainText('Processing');
  await expect(adminPage.getByTestId(`batch-withdrawal-${left.id}`)).toHaveCount(0);

  // The other one is not left pending for the browser tests that follow.
  await adminApi.rejectWithdrawal(left.id, 'Not needed by this test');
});
