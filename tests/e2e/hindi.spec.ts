import { expect, test, type Page } from '@playwright/test';
import { ifscLookupResponseSchema } from '#shared/contracts/bank-accounts';
import { auditPage, expectNoProblems } from './support/accessibility.ts';
import { submitDepositAs } from './support/admin-api.ts';
import { useFileAdmin } from './support/file-admin.ts';
import { newCustomer, signUpThroughForm } from './support/helpers.ts';

/*
 * Issue 33, item 7: a customer who chose Hindi sees the money screens in Hindi, with no English word
 * left but the names the spec keeps in Latin letters, and the screens still pass axe (docs/decisions/046).
 */

const admin = useFileAdmin();

/** Names and codes that read the same in Hindi: the brand, currencies, networks, explorers and Indian banking terms. */
const KEPT_IN_LATIN = new Set([
  'Rupeedesk',
  'USDT',
  'INR',
  'UPI',
  'IFSC',
  'PAN',
  'KYC',
  'VIP',
  'TDS',
  'UTR',
  'ID',
  'PIN',
  'QR',
  'SMS',
  'FIU',
  'IND',
  'Tron',
  'Tronscan',
  'Ethereum',
  'Etherscan',
  // The statement's file formats (decision 048).
  'PDF',
  'CSV',
  // The photo formats and the voter ID's official name (EPIC) of KYC level 2 (decisions 050, 063).
  'JPEG',
  'PNG',
  'HEIC',
  'EPIC',
  // The language select names each language in its own script.
  'English',
]);

/**
 * The English words on the page: its title, its rendered text (toasts and screen-reader text included) and the
 * labels of its controls, less the customer's own data (names, the bank's name from the IFSC list) and any token
 * with a digit or an @ in it (amounts, hashes, addresses, references, e-mail addresses, TRC20 and ERC20).
 */
async function englishWordsOn(page: Page, data: readonly string[]): Promise<string[]> {
  const text = await page.evaluate(() => {
    const parts = [document.title, document.body.innerText];
    for (const element of document.querySelectorAll('[aria-label], [title], [placeholder], img[alt]')) {
      if (element.closest('[aria-hidden="true"]')) continue;
      for (const attribute of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = element.getAttribute(attribute);
        if (value) parts.push(value);
      }
    }
    return parts.join('\n');
  });
  const withoutData = data.reduce((rest, value) => rest.split(value).join(' '), text);
  const words = withoutData
    .split(/\s+/)
    .filter((token) => !/[0-9@]/.test(token))
    .flatMap((token) => token.match(/[A-Za-z]{2,}/g) ?? []);
  return [...new Set(words.filter((word) => !KEPT_IN_LATIN.has(word)))];
}

async function expectAllHindi(page: Page, what: string, data: readonly string[]): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
  expect(await englishWordsOn(page, data), `English words on ${what}`).toEqual([]);
}

test.use({ viewport: { width: 390, height: 844 } });

test('the customer journey in Hindi: deposit, withdraw, bank accounts, a transaction, history, KYC and Change PIN', async ({ page }) => {
  test.setTimeout(240_000);
  const customer = newCustomer();
  await signUpThroughForm(page, customer);
  const deposit = await submitDepositAs(page, '1500');
  await admin().approveDeposit(deposit.id);

  const ifsc = 'HDFC0001234';
  const branch = ifscLookupResponseSchema.parse(await (await page.request.get(`/api/bank-accounts/ifsc/${ifsc}`)).json());
  // The customer's own data, shown as given: the name, the header avatar's initials, the bank and branch of the IFSC.
  const initials = customer.name
    .split(' ')
    .map((part) => part[0])
    .join('');
  const data = [customer.name, initials, branch.bankName, ...(branch.branchName ? [branch.branchName] : [])];

  // The choice is made on the profile's Language card, then every page opens in Hindi.
  await page.goto('/profile');
  await page.getByLabel('Language').selectOption('hi');
  await expect(page.getByRole('heading', { name: 'भाषा' })).toBeVisible();
  const problems: string[] = [];

  await page.goto('/wallet/deposit');
  await expect(page.getByRole('button', { name: 'जमा दर्ज करें' })).toBeVisible();
  await expectAllHindi(page, 'the deposit page', data);
  problems.push(...(await auditPage(page, '/wallet/deposit in Hindi')));

  await page.goto('/bank-accounts');
  await expect(page.getByText('अभी तक कोई बैंक खाता नहीं जोड़ा गया।')).toBeVisible();
  await page.getByRole('button', { name: 'खाता जोड़ें' }).click();
  const dialog = page.getByRole('dialog', { name: 'बैंक खाता जोड़ें' });
  await dialog.getByLabel('खाताधारक का नाम').fill(customer.name);
  await dialog.getByLabel('खाता संख्या', { exact: true }).fill('1234 5678 9012');
  // A mistyped confirmation is refused at its field, in Hindi.
  await dialog.getByLabel('खाता संख्या की पुष्टि करें').fill('1234 5678 9013');
  await dialog.getByLabel('IFSC कोड').fill(ifsc);
  await expect(dialog.getByTestId('ifsc-bank')).toContainText(branch.bankName);
  await dialog.getByRole('button', { name: 'खाता जोड़ें' }).click();
  await expect(dialog.getByText('दोनों खाता संख्याएँ मेल नहीं खातीं। खाता संख्या फिर से लिखें।')).toBeVisible();
  await expectAllHindi(page, 'the add-bank-account dialog', data);
  await dialog.getByLabel('खाता संख्या की पुष्टि करें').fill('1234 5678 9012');
  await dialog.getByRole('button', { name: 'खाता जोड़ें' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('बैंक खाता सफलतापूर्वक जुड़ गया')).toBeVisible();
  await expect(page.getByRole('list', { name: 'बैंक खाते' }).getByRole('listitem')).toHaveCount(1);
  await expectAllHindi(page, 'the bank accounts page', data);
  problems.push(...(await auditPage(page, '/bank-accounts in Hindi')));

  await page.goto('/wallet/withdraw');
  await page.getByLabel('राशि (USDT)').fill('10');
  await expect(page.getByTestId('inr-preview')).not.toHaveText('₹0.00');
  await expect(page.getByRole('button', { name: 'निकासी का अनुरोध करें' })).toBeVisible();
  await expectAllHindi(page, 'the withdraw page', data);
  problems.push(...(await auditPage(page, '/wallet/withdraw in Hindi')));
  // The amount typed in rupees (issue 31, section 5): the switch, the field and the USDT needed in Hindi too.
  await page.getByRole('radio', { name: '₹ रुपयों में' }).check();
  await page.getByLabel('आपको मिलने वाले रुपये (₹)').fill('1000');
  await expect(page.getByTestId('usdt-needed')).toContainText('ज़रूरी USDT:');
  await expectAllHindi(page, 'the withdraw page in rupees', data);
  problems.push(...(await auditPage(page, '/wallet/withdraw in rupees in Hindi')));

  await page.goto(`/wallet/transactions/deposit/${deposit.id}`);
  await expect(page.getByRole('heading', { name: 'विवरण' })).toBeVisible();
  await expect(page.getByTestId('transaction-amount')).toContainText('1,500.00');
  await expectAllHindi(page, 'the transaction page', data);
  problems.push(...(await auditPage(page, 'the transaction page in Hindi')));

  await page.goto('/wallet/history');
  await expect(page.getByRole('tab', { name: 'जमा' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'सभी लेन-देन' })).toBeVisible();
  await expect(page.getByText('1,500.00').first()).toBeVisible();
  await expectAllHindi(page, 'the history page', data);
  problems.push(...(await auditPage(page, '/wallet/history in Hindi')));

  await page.goto('/kyc');
  await expect(page.getByTestId('kyc-level')).toHaveText('1');
  await expect(page.getByRole('heading', { name: 'स्तर 2' })).toBeVisible();
  await expectAllHindi(page, 'the KYC page', data);
  problems.push(...(await auditPage(page, '/kyc in Hindi')));

  await page.goto('/profile');
  await page.getByRole('button', { name: 'PIN बदलें' }).click();
  const changePin = page.getByRole('dialog', { name: 'PIN बदलें' });
  await changePin.getByLabel('मौजूदा PIN').fill(customer.pin);
  await changePin.getByLabel('नया PIN').fill('1111');
  await changePin.getByLabel('नए PIN की पुष्टि करें').fill('1111');
  await changePin.getByRole('button', { name: 'PIN अपडेट करें' }).click();
  // The shared weak-PIN rule's message, in Hindi.
  await expect(changePin.getByText('इस PIN का अनुमान लगाना बहुत आसान है', { exact: false })).toBeVisible();
  await expectAllHindi(page, 'the Change PIN dialog', data);
  await changePin.getByLabel('नया PIN').fill('3691');
  await changePin.getByLabel('नए PIN की पुष्टि करें').fill('3691');
  await changePin.getByRole('button', { name: 'PIN अपडेट करें' }).click();
  await expect(changePin).toBeHidden();
  await expect(page.getByText('PIN सफलतापूर्वक अपडेट हो गया')).toBeVisible();
  await expectAllHindi(page, 'the profile page', data);
  problems.push(...(await auditPage(page, '/profile in Hindi')));

  expectNoProblems(problems);
});
