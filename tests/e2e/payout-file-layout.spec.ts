import fs from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { addBankAccountAs, requestWithdrawalAs, submitDepositAs, type AdminApi } from './support/admin-api.ts';
import type { NewCustomer } from './support/helpers.ts';
import { openAdminAndCustomer, type AdminAndCustomer } from './support/admin-and-customer.ts';

// The bank file's layout picked on the settings page (issue 31, section 2; decision 064): the admin picks the
// RazorpayX Bulk Payouts layout, a batch's file downloads in it, and the provider's report columns apply the results.
// The settings are shared by the whole suite: the layout goes back to the generic CSV after.
test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1366, height: 900 } });

let adminApi: AdminApi;
let adminPage: Page;
let customerPage: Page;
let customer: NewCustomer;
let opened: AdminAndCustomer;

test.beforeAll(async ({ browser }) => {
  const desk = { width: 1366, height: 900 };
  opened = await openAdminAndCustomer(browser, { adminViewport: desk, customerViewport: desk, customer: { name: 'Meera Layout', phone: '+919811225566' } });
  ({ adminApi, adminPage, customerPage, customer } = opened);
  const funding = await submitDepositAs(customerPage, '100');
  await adminApi.approveDeposit(funding.id);
});

test.afterAll(async () => {
  await adminApi?.updateSettings({ payoutFile: { format: 'generic', debitAccountNumber: '' } });
  await opened?.close();
});

test('the admin picks the RazorpayX layout in the settings; the batch file downloads in it and its report applies by reference', async () => {
  test.slow();
  await adminPage.goto('/admin/settings');
  await adminPage.getByRole('tab', { name: 'Withdrawals & TDS' }).click();
  const section = adminPage.getByTestId('payout-file-settings');
  await expect(section.getByLabel('Layout')).toHaveValue('generic');
  await section.getByLabel('Layout').selectOption('razorpayx_bulk');
  const saveButton = adminPage.getByRole('button', { name: 'Save All Settings' });
  await saveButton.press('Enter');
  await expect(section.getByText('The RazorpayX layout needs the RazorpayX account number the payouts are paid from')).toBeVisible();
  await section.getByLabel('Debit account number').fill('7878780080316316');
  await saveButton.press('Enter');
  await expect(adminPage.getByText('Settings updated successfully')).toBeVisible();
  const saved = await (await adminApi.context.get('/api/admin/settings')).json();
  expect(saved.payoutFile).toEqual({ format: 'razorpayx_bulk', debitAccountNumber: '7878780080316316' });

  const bankAccountId = await addBankAccountAs(customerPage, {
    accountHolderName: 'Meera Layout',
    accountNumber: '667788990011',
    bankName: 'ICICI Bank',
    ifscCode: 'ICIC0001122',
    upiId: 'meera@okicici',
  });
  const withdrawal = await requestWithdrawalAs(customerPage, { amount: '20', bankAccountId, pin: customer.pin });
  // A batch of this withdrawal only: other specs on the shared server may leave pending withdrawals of their own.
  const created = await adminApi.context.post('/api/admin/payout-batches', { data: { withdrawalIds: [withdrawal.id] } });
  expect(created.status()).toBe(201);
  const batchId = ((await created.json()) as { batch: { id: string } }).batch.id;
  await adminPage.goto(`/admin/payouts/${batchId}`);

  const [download] = await Promise.all([adminPage.waitForEvent('download'), adminPage.getByRole('link', { name: 'Download bank file (CSV)' }).click()]);
  expect(download.suggestedFilename()).toBe(`razorpayx-bulk-payouts-${batchId}.csv`);
  const lines = (await fs.readFile(await download.path(), 'utf8')).trimEnd().split('\r\n');
  expect(lines[0]).toMatch(/^"RazorpayX Account Number","Payout Amount \(in Rupees\)","Payout Currency","Payout Mode",/);
  expect(lines[1]).toContain(`"7878780080316316",`);
  expect(lines[1]).toContain(`"UPI","payout","","vpa","","","","meera@okicici"`);
  expect(lines[1]).toContain(`"Rupeedesk ${withdrawal.reference}","${withdrawal.reference}"`);
  await adminPage.reload();
  await expect(adminPage.getByTestId('payout-file-issue')).toContainText('Layout: RazorpayX Bulk Payouts (CSV, amount in rupees)');

  // The provider's report: its column for our reference, its status word, the UTR.
  const utr = `${Date.now()}`.slice(-12).padStart(12, '9');
  const report = ['Payout Reference Id,Status,UTR', `${withdrawal.reference},processed,${utr}`].join('\r\n');
  await adminPage.getByLabel('Upload the bank’s results (CSV)').setInputFiles({ name: 'report.csv', mimeType: 'text/csv', buffer: Buffer.from(report) });
  const preview = adminPage.getByTestId('payout-results-preview');
  await expect(preview.getByTestId('preview-row-1')).toContainText('Will be marked paid');
  await preview.getByRole('button', { name: 'Apply results' }).click();
  await expect(adminPage.getByTestId(`batch-withdrawal-${withdrawal.id}`)).toContainText(`UTR: ${utr}`);
});

test('in the Plural layout a batch with a withdrawal over ₹10 lakh shows why its file is refused instead of a download, and nothing is issued', async () => {
  test.slow();
  const { normalRate } = await adminApi.updateSettings({ payoutFile: { format: 'plural_bulk', debitAccountNumber: '' } });
  // ₹12 lakh at today's rate: over Plural's ₹10 lakh per payout after any TDS the settings take.
  const amountUsdt = Math.ceil(1_200_000 / Number(normalRate));
  const funding = await submitDepositAs(customerPage, String(amountUsdt + 10));
  await adminApi.approveDeposit(funding.id);
  const bankAccountId = await addBankAccountAs(customerPage, {
    accountHolderName: 'Meera Layout',
    accountNumber: '667788990022',
    ifscCode: 'ICIC0001122',
    upiId: '',
  });
  const withdrawal = await requestWithdrawalAs(customerPage, { amount: String(amountUsdt), bankAccountId, pin: customer.pin });
  const created = await adminApi.context.post('/api/admin/payout-batches', { data: { withdrawalIds: [withdrawal.id] } });
  expect(created.status(), await created.text()).toBe(201);
  const batchId = ((await created.json()) as { batch: { id: string } }).batch.id;

  await adminPage.goto(`/admin/payouts/${batchId}`);
  const refusal = adminPage.getByTestId('batch-file-refusal');
  await expect(refusal).toContainText('The Plural (Pine Labs) bulk payouts file takes ₹1.00 to ₹10,00,000.00 per payout');
  await expect(refusal).toContainText(`${withdrawal.reference} (₹`);
  await expect(adminPage.getByRole('link', { name: 'Download bank file (CSV)' })).toHaveCount(0);
  await expect(adminPage.getByTestId('payout-file-issue')).toContainText('Not downloaded yet');

  // Nothing was issued: no download recorded, and the batch is still one admin's to cancel.
  const detail = (await (await adminApi.context.get(`/api/admin/payout-batches/${batchId}`)).json()) as { batch: Record<string, unknown> };
  expect(detail.batch).toMatchObject({ issuedAt: null, fileSha256: null, fileFormat: null });
  const cancelled = await adminApi.context.post(`/api/admin/payout-batches/${batchId}/cancel`, { data: {} });
  expect(cancelled.status(), await cancelled.text()).toBe(200);
  // Its withdrawal would be pending again in the shared server's next batch: it is rejected, the funds go back.
  await adminApi.rejectWithdrawal(withdrawal.id, 'Paid another way in the layout test');
});
