import { expect, test, type Locator, type Page } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { WRONG_CURRENT_PASSWORD_MESSAGE } from '#shared/contracts/auth';
import { BANK_ACCOUNT_LIMITS, BANK_ACCOUNT_MESSAGES } from '#shared/contracts/bank-accounts';
import { EMAIL_TAKEN_MESSAGE, SAME_EMAIL_MESSAGE } from '#shared/contracts/contact-verification';
import { DEPOSIT_MESSAGES } from '#shared/contracts/deposits';
import { WEAK_PIN_MESSAGE } from '#shared/contracts/pin';
import { TRANSFER_MESSAGES } from '#shared/contracts/transfers';
import { WALLET_MESSAGES } from '#shared/contracts/wallets';
import { WITHDRAWAL_MESSAGES } from '#shared/contracts/withdrawals';
import { addBankAccountAs, requestWithdrawalAs, submitDepositAs } from './support/admin-api.ts';
import { E2E_BASE_URL } from './support/constants.ts';
import { useFileAdmin } from './support/file-admin.ts';
import { newCustomer, signOutFromHeader, signUpThroughForm, waitForResetLink, type NewCustomer } from './support/helpers.ts';

// Issue 33, item 8: one error shown once. A refusal about a field is said at that field only; any other
// refusal once, in one banner near the button; toasts are for successes and live events, never a failure.
// Every check waits for the server's answer first, so that a second copy cannot appear after it.

const admin = useFileAdmin();
test.use({ viewport: { width: 390, height: 844 } });
test.slow();

const toasts = (page: Page) => page.locator('[data-sonner-toast]');
const errorToasts = (page: Page) => page.locator('[data-sonner-toast][data-type="error"]');
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Clicks `button` and waits for the refusal of `method path` (a 4xx), so the checks after it see the page's answer to it. */
async function submitRefused(page: Page, button: Locator, method: string, path: string | RegExp): Promise<void> {
  const answer = page.waitForResponse(
    (response) => response.request().method() === method && (typeof path === 'string' ? new URL(response.url()).pathname === path : path.test(response.url())),
  );
  await button.click();
  const status = (await answer).status();
  expect(status, `${method} ${String(path)} is refused`).toBeGreaterThanOrEqual(400);
  expect(status).toBeLessThan(500);
}

/** The message is the field's error (its accessible description), and appears nowhere else: no banner, no toast. */
async function expectSaidOnceAtField(page: Page, field: Locator, message: string | RegExp): Promise<void> {
  const pattern = typeof message === 'string' ? new RegExp(escaped(message)) : message;
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(pattern);
  await expect(page.getByText(pattern)).toHaveCount(1);
  await expect(page.getByRole('alert').filter({ hasText: pattern })).toHaveCount(0);
  await expect(toasts(page).filter({ hasText: pattern })).toHaveCount(0);
  await expect(errorToasts(page)).toHaveCount(0);
}

/** The message is one banner (role alert) and appears nowhere else: at no field, in no toast. */
async function expectSaidOnceInBanner(page: Page, message: string | RegExp): Promise<void> {
  const pattern = typeof message === 'string' ? new RegExp(escaped(message)) : message;
  await expect(page.getByRole('alert').filter({ hasText: pattern })).toHaveCount(1);
  await expect(page.getByText(pattern)).toHaveCount(1);
  await expect(page.locator('[aria-invalid="true"]')).toHaveCount(0);
  await expect(toasts(page).filter({ hasText: pattern })).toHaveCount(0);
  await expect(errorToasts(page)).toHaveCount(0);
}

async function fundedCustomer(page: Page, name: string, amount: string): Promise<NewCustomer> {
  const customer = newCustomer({ name });
  await signUpThroughForm(page, customer);
  const deposit = await submitDepositAs(page, amount);
  await admin().approveDeposit(deposit.id);
  return customer;
}

const savedAccount = { accountHolderName: 'Anil Menon', accountNumber: '111122223333', ifscCode: 'HDFC0001234', upiId: '' };

test('the bank account form: an unknown IFSC and a duplicate number once at their fields, on add and on edit; too many accounts in one banner', async ({
  page,
}) => {
  await signUpThroughForm(page, newCustomer({ name: 'Anil Menon' }));
  await addBankAccountAs(page, savedAccount);
  await page.goto('/bank-accounts');
  await page.getByRole('button', { name: 'Add Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Bank Account' });
  const ifsc = dialog.getByLabel('IFSC Code');
  const accountNumber = dialog.getByLabel('Account Number', { exact: true });
  const save = dialog.getByRole('button', { name: 'Add Account' });
  await dialog.getByLabel('Account Holder Name').fill('Anil Menon');
  await accountNumber.fill('444455556666');
  await dialog.getByLabel('Confirm Account Number').fill('444455556666');
  await ifsc.fill('SBIN0999999');
  // The lookup says it while typing, at the field; saving has the server say it again, still once.
  await expectSaidOnceAtField(page, ifsc, BANK_ACCOUNT_MESSAGES.unknownIfsc);
  await submitRefused(page, save, 'POST', '/api/bank-accounts');
  await expectSaidOnceAtField(page, ifsc, BANK_ACCOUNT_MESSAGES.unknownIfsc);
  await ifsc.fill('HDFC0001234');
  await expect(page.getByText(BANK_ACCOUNT_MESSAGES.unknownIfsc)).toHaveCount(0);

  // The same number and IFSC as the saved account: said at the account number.
  await accountNumber.fill(savedAccount.accountNumber);
  await dialog.getByLabel('Confirm Account Number').fill(savedAccount.accountNumber);
  await submitRefused(page, save, 'POST', '/api/bank-accounts');
  await expectSaidOnceAtField(page, accountNumber, BANK_ACCOUNT_MESSAGES.duplicate);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // On edit: a second account given the first one's number, then an unknown IFSC.
  await addBankAccountAs(page, { ...savedAccount, accountNumber: '777788889999' });
  await page.reload();
  await page.getByRole('button', { name: 'Edit HDFC Bank ending in 9999' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Bank Account' });
  const editNumber = edit.getByLabel('Account Number', { exact: true });
  await editNumber.fill(savedAccount.accountNumber);
  await edit.getByLabel('Confirm Account Number').fill(savedAccount.accountNumber);
  await submitRefused(page, edit.getByRole('button', { name: 'Save Changes' }), 'PATCH', /\/api\/bank-accounts\/[0-9a-f-]+$/);
  await expectSaidOnceAtField(page, editNumber, BANK_ACCOUNT_MESSAGES.duplicate);
  await editNumber.fill('');
  await edit.getByLabel('Confirm Account Number').fill('');
  await edit.getByLabel('IFSC Code').fill('SBIN0999999');
  await expectSaidOnceAtField(page, edit.getByLabel('IFSC Code'), BANK_ACCOUNT_MESSAGES.unknownIfsc);
  await submitRefused(page, edit.getByRole('button', { name: 'Save Changes' }), 'PATCH', /\/api\/bank-accounts\/[0-9a-f-]+$/);
  await expectSaidOnceAtField(page, edit.getByLabel('IFSC Code'), BANK_ACCOUNT_MESSAGES.unknownIfsc);
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // A refusal that is about no field (the most accounts a customer may save): one banner near the button.
  for (let index = 2; index < BANK_ACCOUNT_LIMITS.accountsPerUser; index += 1) {
    await addBankAccountAs(page, { ...savedAccount, accountNumber: `5000000000${String(index).padStart(2, '0')}` });
  }
  await page.reload();
  await page.getByRole('button', { name: 'Add Account' }).click();
  await dialog.getByLabel('Account Holder Name').fill('Anil Menon');
  await accountNumber.fill('999900001111');
  await dialog.getByLabel('Confirm Account Number').fill('999900001111');
  await ifsc.fill('HDFC0001234');
  await expect(dialog.getByTestId('ifsc-bank')).toContainText('HDFC Bank');
  await submitRefused(page, save, 'POST', '/api/bank-accounts');
  await expectSaidOnceInBanner(page, BANK_ACCOUNT_MESSAGES.tooMany);
  // Editing a field clears it.
  await accountNumber.fill('999900001112');
  await expect(page.getByText(BANK_ACCOUNT_MESSAGES.tooMany)).toHaveCount(0);
});

test('deleting a bank account with a pending withdrawal is refused once, in the dialog that asked, not in a toast', async ({ page }) => {
  const customer = await fundedCustomer(page, 'Rekha Pillai', '30');
  const bankAccountId = await addBankAccountAs(page, { ...savedAccount, accountHolderName: 'Rekha Pillai' });
  await requestWithdrawalAs(page, { amount: '10', bankAccountId, pin: customer.pin });
  await page.goto('/bank-accounts');
  await page.getByRole('button', { name: 'Delete HDFC Bank ending in 3333' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete Bank Account' });
  await submitRefused(page, confirm.getByRole('button', { name: 'Delete' }), 'DELETE', /\/api\/bank-accounts\/[0-9a-f-]+$/);
  await expect(confirm.getByRole('alert')).toHaveText(BANK_ACCOUNT_MESSAGES.hasPendingWithdrawal);
  await expect(page.getByText(BANK_ACCOUNT_MESSAGES.hasPendingWithdrawal)).toHaveCount(1);
  await expect(errorToasts(page)).toHaveCount(0);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText(BANK_ACCOUNT_MESSAGES.hasPendingWithdrawal)).toHaveCount(0);
});

test('transfer and withdrawal: more than the balance or below the minimum at the amount; a wrong PIN at the PIN; the third ends the session with one notice on the login page', async ({
  page,
}) => {
  const customer = await fundedCustomer(page, 'Sunil Das', '50');
  await addBankAccountAs(page, { ...savedAccount, accountHolderName: 'Sunil Das' });

  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Transfer', exact: true }).click();
  const transfer = page.getByRole('dialog', { name: 'Transfer USDT' });
  await transfer.getByLabel('Recipient Email').fill('someone@example.com');
  await transfer.getByLabel('Amount (USDT)').fill('60');
  await transfer.getByLabel('Transaction PIN').fill(customer.pin);
  await transfer.getByRole('button', { name: 'Send Transfer' }).click();
  await expectSaidOnceAtField(page, transfer.getByLabel('Amount (USDT)'), TRANSFER_MESSAGES.insufficientBalance);
  await page.keyboard.press('Escape');

  await page.goto('/wallet/withdraw');
  const amount = page.getByLabel('Amount (USDT)');
  await page.getByLabel('Bank Account', { exact: true }).selectOption({ index: 1 });
  await amount.fill('60');
  await page.getByRole('button', { name: 'Request Withdrawal' }).click();
  await expectSaidOnceAtField(page, amount, WITHDRAWAL_MESSAGES.insufficientBalance);
  await amount.fill('0.50');
  await page.getByRole('button', { name: 'Request Withdrawal' }).click();
  await expectSaidOnceAtField(page, amount, /minimum withdrawal is/i);

  await amount.fill('10');
  await page.getByRole('button', { name: 'Request Withdrawal' }).click();
  const pinDialog = page.getByRole('dialog', { name: 'Enter Transaction PIN' });
  const wrongPin = customer.pin === '0000' ? '1111' : '0000';
  const pin = pinDialog.getByLabel('Transaction PIN');
  for (const remaining of ['2 attempts', '1 attempt']) {
    await pin.fill(wrongPin);
    await submitRefused(page, pinDialog.getByRole('button', { name: 'Confirm Withdrawal' }), 'POST', '/api/withdrawals');
    await expectSaidOnceAtField(page, pin, `${WITHDRAWAL_MESSAGES.incorrectPin} ${remaining} remaining.`);
    await expect(pin).toHaveValue('');
  }
  await pin.fill(wrongPin);
  await pinDialog.getByRole('button', { name: 'Confirm Withdrawal' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expectSignedOutNoticeOnce(page);
});

/** After the forced sign-out: one banner on the login page says why, and no toast of the ended session remains. */
async function expectSignedOutNoticeOnce(page: Page): Promise<void> {
  const notice = page.getByTestId('signed-out-notice');
  await expect(notice).toHaveRole('alert');
  await expect(notice).toContainText('Too many failed attempts');
  await expect(notice).toContainText('For security reasons you will be logged out.');
  await expect(page.getByText('Too many failed attempts')).toHaveCount(1);
  await expect(toasts(page)).toHaveCount(0);
}

test('Change PIN: a weak new PIN at the new PIN, a wrong current PIN at the current PIN; the third ends the session with one notice on the login page', async ({
  page,
}) => {
  const customer = newCustomer({ name: 'Gita Rao' });
  await signUpThroughForm(page, customer);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Change PIN' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change PIN' });
  const wrongPin = customer.pin === '0000' ? '1111' : '0000';
  // A new PIN too easy to guess: at the new PIN, before anything is sent.
  await dialog.getByLabel('Current PIN').fill(customer.pin);
  await dialog.getByLabel('New PIN', { exact: true }).fill('1234');
  await dialog.getByLabel('Confirm New PIN').fill('1234');
  await dialog.getByRole('button', { name: 'Update PIN' }).click();
  await expectSaidOnceAtField(page, dialog.getByLabel('New PIN', { exact: true }), WEAK_PIN_MESSAGE);
  // A wrong current PIN: at the current PIN, which is emptied.
  await dialog.getByLabel('Current PIN').fill(wrongPin);
  await dialog.getByLabel('New PIN', { exact: true }).fill('3691');
  await dialog.getByLabel('Confirm New PIN').fill('3691');
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    await dialog.getByLabel('Current PIN').fill(wrongPin);
    await submitRefused(page, dialog.getByRole('button', { name: 'Update PIN' }), 'POST', '/api/pin/change');
    await expectSaidOnceAtField(page, dialog.getByLabel('Current PIN'), 'Current PIN is incorrect');
    await expect(dialog.getByLabel('Current PIN')).toHaveValue('');
  }
  // The third wrong PIN ends every session: the login page says why, once, with no toast left from before.
  await dialog.getByLabel('Current PIN').fill(wrongPin);
  await dialog.getByRole('button', { name: 'Update PIN' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expectSignedOutNoticeOnce(page);
});

test('the deposit form: a malformed hash once at its field', async ({ page }) => {
  await signUpThroughForm(page, newCustomer({ name: 'Farah Khan' }));
  await page.goto('/wallet/deposit');
  await page.getByLabel('Amount (USDT)').fill('25');
  const hash = page.getByLabel('Transaction Hash');
  await hash.fill('not-a-hash');
  await page.getByRole('button', { name: 'Submit Deposit' }).click();
  await expectSaidOnceAtField(page, hash, DEPOSIT_MESSAGES.trc20HashShape);
});

test('the profile: a bad phone, a wrong password and the same e-mail at their fields; a change asked again too soon in one banner; change password at its field', async ({
  page,
}) => {
  const customer = newCustomer({ name: 'Vikram Shah' });
  await signUpThroughForm(page, customer);
  await page.goto('/profile');

  await page.getByRole('button', { name: 'Edit details' }).click();
  await page.getByLabel('Phone Number').fill('12345');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expectSaidOnceAtField(page, page.getByLabel('Phone Number'), 'Phone must start with + (country code)');
  await page.getByRole('button', { name: 'Cancel' }).click();

  const email = page.getByRole('region', { name: 'E-mail', exact: true });
  await email.getByRole('button', { name: 'Change e-mail' }).click();
  await email.getByLabel('New e-mail').fill(`new-${customer.email}`);
  await email.getByLabel('Current password').fill('not-the-password');
  const send = email.getByRole('button', { name: 'Send link to the new e-mail' });
  await submitRefused(page, send, 'POST', /\/api\/.*email/);
  await expectSaidOnceAtField(page, email.getByLabel('Current password'), WRONG_CURRENT_PASSWORD_MESSAGE);

  await email.getByLabel('New e-mail').fill(customer.email);
  await email.getByLabel('Current password').fill(customer.password);
  await submitRefused(page, send, 'POST', /\/api\/.*email/);
  await expectSaidOnceAtField(page, email.getByLabel('New e-mail'), SAME_EMAIL_MESSAGE);

  // Sign-up sent a verification link a moment ago; another link within a minute is refused with a wait, about no field.
  await email.getByLabel('New e-mail').fill(`new-${customer.email}`);
  const tooSoon = /Please wait \d+ seconds? before asking for another e-mail\./;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const answer = page.waitForResponse((response) => response.request().method() === 'POST' && /\/api\/.*email/.test(response.url()));
    await send.click();
    if ((await answer).status() === 429) break;
    // Slower than a minute since sign-up: this change went out, and the next one comes too soon.
    await email.getByRole('button', { name: 'Change e-mail' }).click();
    await email.getByLabel('New e-mail').fill(`other-${customer.email}`);
    await email.getByLabel('Current password').fill(customer.password);
  }
  await expectSaidOnceInBanner(page, tooSoon);

  await page.getByRole('button', { name: 'Change Password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change Password' });
  await dialog.getByLabel('Current Password').fill('not-my-password');
  await dialog.getByLabel('New Password', { exact: true }).fill('vikram-new-password');
  await dialog.getByLabel('Confirm New Password').fill('vikram-new-password');
  await submitRefused(page, dialog.getByRole('button', { name: 'Change Password' }), 'POST', '/api/auth/change-password');
  await expectSaidOnceAtField(page, dialog.getByLabel('Current Password'), WRONG_CURRENT_PASSWORD_MESSAGE);
});

/** The API client's words when a request never reached the server. */
const NO_CONNECTION = 'Unable to connect to the server. Check your connection and try again.';

/** Drops the connection of every `method` request to `path`, as a phone losing its network would (offline.spec.ts does the same). */
async function dropRequests(page: Page, method: string, path: string): Promise<void> {
  await page.route(path, (route) => (route.request().method() === method ? route.abort('internetdisconnected') : route.fallback()));
}

/** Ends the browser's session on the server, as signing out in another tab would; the open page does not know yet. */
async function endSessionElsewhere(page: Page): Promise<void> {
  expect((await page.request.post('/api/auth/logout', { headers: { origin: E2E_BASE_URL } })).ok(), 'sign-out').toBe(true);
}

async function fillSignupForm(page: Page, customer: NewCustomer): Promise<void> {
  await page.getByLabel('Full Name').fill(customer.name);
  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Phone').fill(customer.phone);
  await page.getByLabel('Password', { exact: true }).fill(customer.password);
  await page.getByLabel('Confirm Password').fill(customer.password);
  await page.getByLabel('Transaction PIN (4 digits)').fill(customer.pin);
}

test("the profile's language: a choice the account could not keep is said once at the select, and goes once one is kept", async ({ page }) => {
  await signUpThroughForm(page, newCustomer({ name: 'Meera Iyer' }));
  await page.goto('/profile');
  await page.route('**/api/me/language', (route) => route.abort('connectionfailed'));
  await page.getByLabel('Language', { exact: true }).selectOption('hi');
  const notSaved = 'आपकी भाषा आपके खाते में सहेजी नहीं जा सकी। कृपया फिर से कोशिश करें।';
  await expectSaidOnceAtField(page, page.getByLabel('भाषा'), notSaved);

  await page.unroute('**/api/me/language');
  const saved = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/me/language' && response.ok());
  await page.getByLabel('भाषा').selectOption('en');
  await saved;
  await expect(page.getByText('Your language could not be saved to your account. Please try again.')).toHaveCount(0);
  await expect(page.getByText(notSaved)).toHaveCount(0);
  await expect(page.getByLabel('Language')).not.toHaveAttribute('aria-invalid');
});

test('sign-up: an e-mail already registered once at the e-mail field; a lost connection in one banner; no toast', async ({ page }) => {
  const registered = newCustomer({ name: 'Kavita Joshi' });
  await signUpThroughForm(page, registered, { kycLevelOne: false });
  await signOutFromHeader(page);
  await page.goto('/signup');
  await fillSignupForm(page, { ...newCustomer({ name: 'Kavita Joshi' }), email: registered.email });
  const create = page.getByRole('button', { name: 'Create Account' });
  await submitRefused(page, create, 'POST', '/api/auth/signup');
  await expectSaidOnceAtField(page, page.getByLabel('Email'), EMAIL_TAKEN_MESSAGE);

  await dropRequests(page, 'POST', '**/api/auth/signup');
  await page.getByLabel('Email').fill(newCustomer().email);
  await create.click();
  await expectSaidOnceInBanner(page, NO_CONNECTION);
  await expect(page).toHaveURL(/\/signup$/);
});

test('forgot password: a request that fails is said once, above the button, and goes when the address is edited', async ({ page }) => {
  await page.goto('/forgot-password');
  await dropRequests(page, 'POST', '**/api/auth/forgot-password');
  await page.getByLabel('Email').fill(newCustomer().email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expectSaidOnceInBanner(page, NO_CONNECTION);
  await expect(page.getByText('Check Your Email')).toHaveCount(0);
  await page.getByLabel('Email').fill(newCustomer().email);
  await expect(page.getByText(NO_CONNECTION)).toHaveCount(0);
});

test('reset password: a mismatch at the confirmation; a link used up meanwhile in one banner; no toast', async ({ page }) => {
  const customer = newCustomer({ name: 'Rohan Iyer' });
  await signUpThroughForm(page, customer, { kycLevelOne: false });
  await signOutFromHeader(page);
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(customer.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Check Your Email')).toBeVisible();
  const link = await waitForResetLink(customer.email);
  await page.goto(link);

  const reset = page.getByRole('button', { name: 'Reset Password' });
  await page.getByLabel('New Password', { exact: true }).fill('rohan-new-password');
  await page.getByLabel('Confirm New Password').fill('rohan-typo-password');
  await reset.click();
  await expectSaidOnceAtField(page, page.getByLabel('Confirm New Password'), 'Passwords do not match');

  // The same link used in another tab while this page was open: the server refuses this one, about no field.
  const token = new URL(link).searchParams.get('token');
  const used = await page.request.post('/api/auth/reset-password', { data: { token, password: 'rohan-other-password' }, headers: { origin: E2E_BASE_URL } });
  expect(used.ok(), 'the link used elsewhere').toBe(true);
  await page.getByLabel('Confirm New Password').fill('rohan-new-password');
  await submitRefused(page, reset, 'POST', '/api/auth/reset-password');
  await expectSaidOnceInBanner(page, 'This password reset link is invalid or has expired. Please request a new one.');
  await expect(page.getByRole('alert').getByRole('link', { name: 'Request a new link' })).toBeVisible();
});

test('PIN set-up: a PIN too easy to guess at its field; a refused set-up once in one banner headed "Failed to set up PIN"; no toast', async ({ page }) => {
  await signUpThroughForm(page, newCustomer({ name: 'Meena Kulkarni' }), { kycLevelOne: false });
  await page.goto('/pin-setup');
  const setPin = page.getByRole('button', { name: 'Set PIN' });
  await page.getByLabel('New PIN').fill('1234');
  await page.getByLabel('Confirm PIN').fill('1234');
  await setPin.click();
  await expectSaidOnceAtField(page, page.getByLabel('New PIN'), WEAK_PIN_MESSAGE);

  // This account chose its PIN at sign-up: the server refuses a second first PIN.
  await page.getByLabel('New PIN').fill('3691');
  await page.getByLabel('Confirm PIN').fill('3691');
  await submitRefused(page, setPin, 'POST', '/api/pin/setup');
  await expectSaidOnceInBanner(page, 'A transaction PIN is already set. Use Change PIN or Forgot PIN instead.');
  await expect(page.getByRole('alert')).toContainText('Failed to set up PIN');
  await expect(page.getByText('Failed to set up PIN')).toHaveCount(1);
  await page.getByLabel('New PIN').fill('3692');
  await expect(page.getByText('Failed to set up PIN')).toHaveCount(0);
});

test('my wallets: removing a wallet already removed elsewhere is said once above the list, which is read again; no toast', async ({ page }) => {
  const customer = newCustomer({ name: 'Arjun Nair' });
  await signUpThroughForm(page, customer);
  const walletKey = privateKeyToAccount(generatePrivateKey());
  await page.goto('/wallet/wallets');
  await page.getByLabel('Wallet network').selectOption('ERC20');
  await page.getByLabel('Wallet address').fill(walletKey.address);
  await page.getByRole('button', { name: 'Get message to sign' }).click();
  await page.getByLabel('Signature').fill(await walletKey.signMessage({ message: await page.getByLabel('Message to sign').inputValue() }));
  await page.getByRole('button', { name: 'Verify wallet' }).click();
  const list = page.getByRole('list', { name: 'Verified wallets' });
  await expect(list.getByText(walletKey.address)).toBeVisible();

  // Another tab removes the wallet just before this page's request reaches the server, which then refuses it
  // (removed first, the row would leave this page by the live update before it could be clicked).
  const removedElsewhere: number[] = [];
  await page.route(/\/api\/wallets\/[0-9a-f-]+$/, async (route) => {
    if (route.request().method() !== 'DELETE') return route.fallback();
    removedElsewhere.push((await page.request.delete(route.request().url(), { headers: { origin: E2E_BASE_URL } })).status());
    return route.continue();
  });
  await submitRefused(page, page.getByRole('button', { name: `Remove ${walletKey.address}` }), 'DELETE', /\/api\/wallets\/[0-9a-f-]+$/);
  expect(removedElsewhere, 'the removal in another tab').toEqual([200]);
  await expectSaidOnceInBanner(page, WALLET_MESSAGES.notFound);
  await expect(page.getByText('No verified wallets yet.')).toBeVisible();
  await expect(toasts(page)).toHaveCount(0);
});

test('the login page says once why the app signed the customer out: a PIN set-up whose session ended, a PIN reset whose session ended', async ({ page }) => {
  const customer = newCustomer({ name: 'Nisha Menon' });
  await signUpThroughForm(page, customer, { kycLevelOne: false });
  await page.goto('/pin-setup');
  await page.getByLabel('New PIN').fill('3691');
  await page.getByLabel('Confirm PIN').fill('3691');
  await endSessionElsewhere(page);
  await page.getByRole('button', { name: 'Set PIN' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expectNoticeOnce(page, 'You need to be logged in to set up a PIN.');

  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Password').fill(customer.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/verify-pin/);
  await page.getByRole('link', { name: 'Forgot PIN?' }).click();
  await page.getByLabel('Account Password').fill(customer.password);
  await endSessionElsewhere(page);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expectNoticeOnce(page, 'User not found', 'Please log in again.');
});

/** One notice on the login page, with SPEC.md's texts, and no toast. */
async function expectNoticeOnce(page: Page, title: string, description?: string): Promise<void> {
  const notice = page.getByTestId('signed-out-notice');
  await expect(notice).toHaveRole('alert');
  await expect(notice).toContainText(title);
  if (description) await expect(notice).toContainText(description);
  await expect(page.getByText(title, { exact: true })).toHaveCount(1);
  await expect(page.getByRole('alert')).toHaveCount(1);
  await expect(toasts(page)).toHaveCount(0);
}
