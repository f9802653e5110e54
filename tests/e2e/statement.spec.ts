import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { drawnHindi, pdfText, withoutSpaces } from '../fixtures/pdf-text.ts';
import { AdminApi, addBankAccountAs, requestWithdrawalAs, submitDepositAs, uniqueTrc20Hash } from './support/admin-api.ts';
import { E2E_BASE_URL } from './support/constants.ts';
import { newCustomer, signUpThroughForm } from './support/helpers.ts';

// Issue 33: the customer downloads a statement on a phone (390x844) and it reads back with the
// movements, references, UTR, hash and balances; a Hindi customer gets it in Hindi.
test.use({ viewport: { width: 390, height: 844 } });
test.setTimeout(180_000);

let adminApi: AdminApi | undefined;

test.afterAll(async () => {
  await adminApi?.dispose();
});

/** Clicks a download button of the statement card and returns the file's name and bytes. */
async function downloadFrom(page: Page, button: string): Promise<{ name: string; bytes: Buffer }> {
  const card = page.getByTestId('statement-card');
  const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: button }).click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), bytes: fs.readFileSync(path) };
}

test('a customer downloads their statement as PDF and CSV from the history page, in English and in Hindi', async ({ page }) => {
  adminApi = await AdminApi.open();
  await adminApi.ensureTrc20DepositAddress();
  const customer = newCustomer({ name: 'Meera Statementwala', phone: '+919812343210' });
  await signUpThroughForm(page, customer);
  const depositHash = uniqueTrc20Hash();
  const deposit = await submitDepositAs(page, '1500', depositHash);
  await adminApi.approveDeposit(deposit.id);
  const bankAccountId = await addBankAccountAs(page, {
    accountHolderName: 'Meera Statementwala',
    accountNumber: '556677889900',
    ifscCode: 'HDFC0000001',
    upiId: null,
  });
  const withdrawal = await requestWithdrawalAs(page, { amount: '100', bankAccountId, pin: customer.pin });
  const utr = String(100_000_000_000 + Math.floor(Math.random() * 800_000_000_000));
  await adminApi.approveWithdrawal(withdrawal.id, utr);

  await page.goto('/wallet/history');
  const card = page.getByTestId('statement-card');
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByRole('heading', { name: 'Download statement' })).toBeVisible();
  const pdf = await downloadFrom(page, 'Download PDF');
  expect(pdf.name).toMatch(/^statement-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.pdf$/);
  const text = await pdfText(pdf.bytes);
  const flat = withoutSpaces(text);
  expect(text).toContain('Account statement');
  expect(text).toContain('Meera Statementwala');
  expect(text).toContain('+91****3210');
  expect(flat).toContain(depositHash);
  expect(flat).toContain(`Reference:${withdrawal.reference}`);
  expect(flat).toContain(`UTR:${utr}`);
  expect(flat).toContain('Openingbalance0.000000USDTTotalcredits1,500.000000USDTTotaldebits100.000000USDTClosingbalance1,400.000000USDT');

  const csv = await downloadFrom(page, 'Download CSV');
  expect(csv.name).toMatch(/\.csv$/);
  const csvText = csv.bytes.toString('utf8');
  expect(csvText).toContain(`"${withdrawal.reference}","${utr}"`);
  expect(csvText).toContain(' 23:59:59","Closing balance","","","","","","","","","","1400.000000"');

  // A period the server refuses is not offered: the end date cannot be in the future.
  await card.getByLabel('To').fill('2999-01-01');
  await expect(card.getByText('The end date cannot be in the future')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Download PDF' })).toBeDisabled();

  // In Hindi: the account's language, and this device's.
  const saved = await page.request.put(`${E2E_BASE_URL}/api/me/language`, { data: { language: 'hi' }, headers: { origin: E2E_BASE_URL } });
  expect(saved.status()).toBe(200);
  await page.evaluate(() => window.localStorage.setItem('rupeedesk.language', 'hi'));
  await page.reload();
  await expect(card.getByRole('heading', { name: 'स्टेटमेंट डाउनलोड करें' })).toBeVisible();
  const hindi = withoutSpaces(await pdfText((await downloadFrom(page, 'PDF डाउनलोड करें')).bytes));
  for (const label of ['खाता विवरण', 'प्रारंभिक शेष', 'अंतिम शेष', 'बैंक में निकासी']) expect(hindi, label).toContain(await drawnHindi(label));
  expect(hindi).toContain(`UTR:${utr}`);
  expect(hindi).toContain('1,400.000000');
});
