import { expect, test, type Page } from '@playwright/test';
import { updateAdminUserResponseSchema } from '#shared/contracts/admin';
import { meResponseSchema } from '#shared/contracts/auth';
import { ratesResponseSchema } from '#shared/contracts/settings';
import { formatInrForDisplay, inrPaiseForUsdt, inrPaiseFromWire, usdtMicrosFromWire } from '#shared/money';
import { addBankAccountAs, requestWithdrawalAs, signUpThroughApi, submitDepositAs, uniqueTrc20Hash } from './support/admin-api.ts';
import { expectNoSidewaysScroll, expectWhollyShown, PHONE_WIDTHS } from './support/layout.ts';
import { newCustomer, signUpThroughForm, type NewCustomer } from './support/helpers.ts';
import { useFileAdmin } from './support/file-admin.ts';

const admin = useFileAdmin();

async function rates(): Promise<{ normal: bigint; vip: bigint }> {
  const answer = ratesResponseSchema.parse(await (await admin().context.get('/api/rates')).json());
  return { normal: inrPaiseFromWire(answer.normalRate), vip: inrPaiseFromWire(answer.vipRate) };
}

async function userIdOf(page: Page): Promise<string> {
  return meResponseSchema.parse(await (await page.request.get('/api/me')).json()).id;
}

/** A signed-up customer with an approved deposit of `amount` (and nothing else). */
async function fundedCustomer(
  page: Page,
  amount: string,
  overrides: Partial<NewCustomer> = {},
): Promise<{ customer: NewCustomer; depositId: string; hash: string }> {
  const customer = newCustomer(overrides);
  await signUpThroughForm(page, customer);
  const hash = uniqueTrc20Hash();
  const deposit = await submitDepositAs(page, amount, hash);
  await admin().approveDeposit(deposit.id);
  return { customer, depositId: deposit.id, hash };
}

for (const width of PHONE_WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });
    // Each test walks through many pages with a second customer or the admin: more than the default minute on a busy machine.
    test.slow();

    test('home shows the balance at the customer’s own rate, pending requests and the newest transactions; chip and navigation open the wallet', async ({
      page,
    }) => {
      const { depositId } = await fundedCustomer(page, '120.5');
      const pending = await submitDepositAs(page, '30');
      await page.goto('/dashboard');
      const main = page.getByRole('main');
      const { normal, vip } = await rates();

      await expect(main.getByTestId('home-balance')).toHaveText('120.50 USDT');
      await expect(main.getByTestId('home-balance-inr')).toHaveText(`≈ ${formatInrForDisplay(inrPaiseForUsdt(usdtMicrosFromWire('120.5'), normal))}`);
      const balance = main.getByRole('region', { name: 'Total balance' });
      await expect(balance.getByText('VIP Rate', { exact: true })).toHaveCount(0);
      for (const name of ['Deposit USDT', 'Withdraw INR', 'Invite']) await expect(main.getByRole('link', { name })).toBeVisible();
      await expect(main.getByRole('button', { name: 'Transfer' })).toBeVisible();

      const pendingTable = main.getByRole('table', { name: 'Pending transactions' });
      await expect(pendingTable.getByRole('row').filter({ hasText: 'Deposit' })).toHaveCount(1);
      await expect(pendingTable.getByRole('row').filter({ hasText: 'Deposit' })).toContainText('Pending');
      await expect(pendingTable.getByRole('link', { name: 'Deposit' })).toHaveAttribute('href', `/wallet/transactions/deposit/${pending.id}`);

      const recent = main.getByRole('table', { name: 'Recent transactions' });
      await expect(recent.getByRole('row')).toHaveCount(3);
      await expect(recent.getByRole('row').nth(2)).toContainText('+120.50 USDT');
      await expect(recent.getByRole('row').nth(2)).toContainText('Approved');
      await expect(recent.getByRole('link', { name: 'Deposit' }).nth(1)).toHaveAttribute('href', `/wallet/transactions/deposit/${depositId}`);
      // A deposit not yet credited carries no plus.
      await expect(recent.getByRole('row').nth(1)).not.toContainText('+');
      await expectNoSidewaysScroll(page);

      // The header chip (outside main) and the bottom navigation open the wallet.
      await expect(main.getByTestId('balance-chip')).toHaveCount(0);
      await page.getByTestId('balance-chip').click();
      await expect(page).toHaveURL(/\/wallet$/);
      await page.goto('/profile');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Wallet' }).click();
      await expect(page).toHaveURL(/\/wallet$/);

      // VIP customers see the VIP rate with its badge.
      const changed = await admin().context.patch(`/api/admin/users/${await userIdOf(page)}`, { data: { vipLevel: 'vip' } });
      updateAdminUserResponseSchema.parse(await changed.json());
      await page.goto('/dashboard');
      await expect(balance.getByText('VIP Rate', { exact: true })).toBeVisible();
      await expect(balance.getByTestId('home-rate')).toHaveText(`at ${formatInrForDisplay(vip)} per USDT (your VIP rate)`);
      await expect(main.getByTestId('home-balance-inr')).toHaveText(`≈ ${formatInrForDisplay(inrPaiseForUsdt(usdtMicrosFromWire('120.5'), vip))}`);
    });

    test('every transaction opens its own page with a timeline, amounts, hash and reference; back returns where the customer came from', async ({ page }) => {
      const { customer, depositId, hash } = await fundedCustomer(page, '200', { name: 'Kiran Rao' });
      // A paid withdrawal with its UTR, a rejected deposit and a transfer.
      const bankAccountId = await addBankAccountAs(page, {
        accountHolderName: 'Kiran Rao',
        accountNumber: '123456789012',
        bankName: 'State Bank of India',
        ifscCode: 'SBIN0001234',
      });
      const withdrawal = await requestWithdrawalAs(page, { amount: '50', bankAccountId, pin: customer.pin });
      // A UTR is recorded once across all withdrawals (decision 038): each viewport's run pays with its own.
      const utr = String(100_000_000_000 + Math.floor(Math.random() * 800_000_000_000));
      await admin().approveWithdrawal(withdrawal.id, utr);
      const rejected = await submitDepositAs(page, '40');
      await admin().rejectDeposit(rejected.id, 'No such transaction on the chain');

      // From the history page, the deposit's line opens its page.
      await page.goto('/wallet/history');
      const history = page.getByRole('tabpanel').getByRole('table');
      await history.getByRole('row').filter({ hasText: '+200.00 USDT' }).getByRole('link').click();
      await expect(page).toHaveURL(new RegExp(`/wallet/transactions/deposit/${depositId}$`));
      await expect(page.getByRole('heading', { level: 1, name: 'Deposit' })).toBeVisible();
      const timeline = page.getByRole('list', { name: 'Status timeline' });
      await expect(timeline.getByRole('listitem')).toHaveText([/Submitted/, /Checking/, /Credited/]);
      await expect(page.getByTestId('transaction-amount')).toHaveText('+200.00 USDT');
      await expect(page.getByTestId('transaction-hash')).toContainText(hash);
      await expect(page.getByTestId('transaction-hash')).toHaveAttribute('href', `https://tronscan.org/#/transaction/${hash}`);
      await expect(page.getByTestId('reference-id')).toHaveText(depositId);
      await expectNoSidewaysScroll(page);
      // It works on reload, and the back arrow returns to the history.
      await page.reload();
      await expect(page.getByTestId('transaction-hash')).toContainText(hash);
      await page.goto('/wallet/history');
      await history.getByRole('row').filter({ hasText: '+200.00 USDT' }).getByRole('link').click();
      await page.getByRole('link', { name: 'Back' }).click();
      await expect(page).toHaveURL(/\/wallet\/history$/);

      // The paid withdrawal: Requested -> Processing -> Paid with the UTR, rate and tier, masked bank account.
      await page.goto(`/wallet/transactions/withdrawal/${withdrawal.id}`);
      await expect(timeline.getByRole('listitem')).toHaveText([/Requested/, /Processing/, new RegExp(`Paid.*${utr}`)]);
      await expect(page.getByTestId('transaction-amount')).toHaveText(`−${formatInrForDisplay(inrPaiseFromWire(withdrawal.amountInr))}`);
      await expect(page.getByText('State Bank of India ••••9012')).toBeVisible();
      await expect(page.getByText('123456789012')).toHaveCount(0);
      await expect(page.getByText('Standard Rate')).toBeVisible();
      await expectNoSidewaysScroll(page);

      // The rejected deposit: the reason, and no plus sign.
      await page.goto(`/wallet/transactions/deposit/${rejected.id}`);
      await expect(timeline.getByRole('listitem').last()).toHaveText(/Rejected.*Reason: No such transaction on the chain/);
      await expect(page.getByTestId('transaction-amount')).toHaveText('40.00 USDT');

      // A transfer, seen by its sender; then by a stranger: not found.
      const recipient = newCustomer({ name: 'Asha Menon' });
      await signUpThroughApi(recipient);
      const transferResponse = await page.request.post('/api/transfers', {
        data: { recipientEmail: recipient.email, amount: '12.5', pin: customer.pin },
        headers: { origin: new URL(page.url()).origin },
      });
      expect(transferResponse.status()).toBe(201);
      const transferId = ((await transferResponse.json()) as { transfer: { id: string } }).transfer.id;
      await page.goto(`/wallet/transactions/transfer/${transferId}`);
      await expect(timeline.getByRole('listitem')).toHaveText([/Requested/, /Waiting for approval/, /Approved/]);
      await expect(page.getByTestId('transaction-amount')).toHaveText('−12.50 USDT');
      await expect(page.getByText('To Asha Menon')).toBeVisible();

      const strangerPage = await page
        .context()
        .browser()!
        .newPage({ viewport: { width, height: 800 } });
      await signUpThroughForm(strangerPage, newCustomer());
      await strangerPage.goto(`/wallet/transactions/deposit/${depositId}`);
      await expect(strangerPage.getByText('Transaction not found')).toBeVisible();
      await expect(strangerPage.getByText(hash)).toHaveCount(0);
      await strangerPage.close();
    });

    test('a referral bonus opens its page', async ({ page }) => {
      const referrer = newCustomer({ name: 'Ref Errer' });
      await signUpThroughForm(page, referrer);
      const code = meResponseSchema.parse(await (await page.request.get('/api/me')).json()).referralCode;
      const friendPage = await page.context().browser()!.newPage();
      await signUpThroughForm(friendPage, newCustomer({ name: 'Friend Deposits' }), { referralCode: code });
      const deposit = await submitDepositAs(friendPage, '500');
      await admin().approveDeposit(deposit.id);
      await friendPage.close();

      await page.goto('/wallet/history');
      await page.getByRole('tab', { name: 'Referral' }).click();
      await page.getByRole('tabpanel').getByRole('link', { name: 'Referral Bonus' }).click();
      await expect(page).toHaveURL(/\/wallet\/transactions\/referral\/[0-9a-f-]{36}$/);
      await expect(page.getByTestId('transaction-amount')).toHaveText('+0.50 USDT');
      await expect(page.getByText('Friend Deposits')).toBeVisible();
      await expect(page.getByText('500.00 USDT')).toBeVisible();
    });

    test('history is a list of cards with kind and status filters, and no customer page scrolls sideways', async ({ page }) => {
      await fundedCustomer(page, '75');
      await submitDepositAs(page, '10');
      await page.goto('/wallet/history');
      const table = page.getByRole('tabpanel').getByRole('table');
      await expect(table.getByRole('row')).toHaveCount(3);
      // Every card's status badge is on screen: nothing is cut off at the right.
      for (const status of ['Pending', 'Approved']) {
        const box = await table.getByRole('row').filter({ hasText: status }).getByText(status, { exact: true }).boundingBox();
        expect(box).not.toBeNull();
        expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      }
      await page.getByLabel('Status').selectOption('pending');
      await expect(table.getByRole('row')).toHaveCount(2);
      await expect(table.getByRole('row').nth(1)).toContainText('10.00 USDT');
      await page.getByLabel('Status').selectOption('all');
      await page.getByRole('tab', { name: 'Withdrawals' }).click();
      await expect(page.getByRole('tabpanel').getByText('No transactions found')).toBeVisible();

      const depositId = (await submitDepositAs(page, '10')).id;
      const pages = [
        '/dashboard',
        '/profile',
        '/wallet',
        '/wallet/history',
        '/wallet/deposit',
        '/wallet/withdraw',
        '/referral-vip',
        '/bank-accounts',
        '/notifications',
        `/wallet/transactions/deposit/${depositId}`,
      ];
      for (const path of pages) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(page.getByText('Loading', { exact: false })).toHaveCount(0);
        await expectNoSidewaysScroll(page, path);
        // Each page names itself in the browser tab.
        await expect(page).toHaveTitle(/^[A-Z][^·]* · Rupeedesk$/);
      }
      await page.goto('/wallet');
      await expect(page).toHaveTitle('Wallet · Rupeedesk');
    });

    test('the header shows the whole name and masked phone beside a five-digit balance, and the whole title beside notifications, refresh and sign-out', async ({
      page,
    }) => {
      await fundedCustomer(page, '12345.67', { name: 'Meera Iyer', phone: '+919812345678' });
      await page.goto('/wallet/withdraw');
      const header = page.getByRole('banner');
      await expect(header.getByTestId('balance-chip')).toHaveText('12,345.67 USDT');
      await expect(header.getByRole('heading', { level: 1 })).toHaveText('Withdraw INR');
      await expectWhollyShown(header.getByText('Meera Iyer', { exact: true }), 'the name');
      await expectWhollyShown(header.getByText('+91****5678', { exact: true }), 'the masked phone');
      await expectWhollyShown(header.getByRole('heading', { level: 1 }), 'the title');
      for (const action of [
        header.getByRole('link', { name: 'Notifications' }),
        header.getByRole('button', { name: 'Refresh' }),
        header.getByRole('button', { name: 'Sign out' }),
      ]) {
        await expect(action).toBeInViewport();
      }
      await expectNoSidewaysScroll(page, 'the withdrawal page with a five-digit balance');
      // The longest title a customer sees, beside the same three actions.
      await page.goto('/wallet/history');
      await expect(header.getByRole('heading', { level: 1 })).toHaveText('Transaction History');
      await expectWhollyShown(header.getByRole('heading', { level: 1 }), 'the history title');
    });
  });
}
