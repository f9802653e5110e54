import { expect, test, type Page } from '@playwright/test';
import type { ReceivedMail } from '../fixtures/mail-server.ts';
import { submitDepositAs } from './support/admin-api.ts';
import { E2E_INBOX_PORT } from './support/constants.ts';
import { newCustomer, signUpThroughForm } from './support/helpers.ts';
import { expectNoSidewaysScroll, PHONE_WIDTHS } from './support/layout.ts';
import { useFileAdmin } from './support/file-admin.ts';

const admin = useFileAdmin();

async function mailsTo(to: string): Promise<ReceivedMail[]> {
  const response = await fetch(`http://127.0.0.1:${E2E_INBOX_PORT}/messages?to=${encodeURIComponent(to)}`);
  return (await response.json()) as ReceivedMail[];
}

async function waitForMail(to: string, words: string): Promise<ReceivedMail> {
  let found: ReceivedMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailsTo(to)).find((message) => message.decoded.includes(words));
        return found !== undefined;
      },
      { message: `a mail with "${words}" to ${to}` },
    )
    .toBe(true);
  return found as ReceivedMail;
}

/** Live updates reach this page once the stream says who it is for. */
async function waitForLiveUpdates(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-live-updates', 'customer');
}

for (const width of PHONE_WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });
    test.slow();

    test('a credited deposit rings the bell live, lists at /notifications, and is e-mailed; e-mails can be turned off per kind', async ({ page }) => {
      const customer = newCustomer();
      await signUpThroughForm(page, customer);
      await waitForLiveUpdates(page);
      const bell = page.getByRole('banner').getByRole('link', { name: /^Notifications/ });
      await expect(bell).toHaveAccessibleName('Notifications');

      const deposit = await submitDepositAs(page, '25');
      await admin().approveDeposit(deposit.id);
      await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
      await expect(page.getByTestId('unread-count')).toHaveText('1');
      await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'You have a new notification' })).toBeVisible();

      await bell.click();
      await expect(page).toHaveURL(/\/notifications$/);
      const list = page.getByRole('list', { name: 'Notifications' });
      await expect(list.getByRole('listitem')).toHaveCount(1);
      await expect(list.getByRole('listitem').first()).toContainText('Deposit credited');
      await expect(list.getByRole('listitem').first()).toContainText('25.00 USDT');
      await expect(page.getByTestId('unread-count')).toHaveCount(0);
      await expectNoSidewaysScroll(page);
      await list.getByRole('link').first().click();
      await expect(page).toHaveURL(new RegExp(`/wallet/transactions/deposit/${deposit.id}$`));

      const mail = await waitForMail(customer.email, 'Subject: Deposit credited: 25.00 USDT');
      expect(mail.decoded).toContain(deposit.id);

      // Turn deposit e-mails off; a later deposit is still told in the app, but not e-mailed.
      await page.goto('/profile');
      await expect(page.getByRole('heading', { name: 'Notification preferences' })).toBeVisible();
      await page.getByLabel('E-mail me about deposits').uncheck();
      await page.getByRole('button', { name: 'Save preferences' }).click();
      await expect(page.getByText('Notification preferences saved')).toBeVisible();
      await page.reload();
      await expect(page.getByLabel('E-mail me about deposits')).not.toBeChecked();
      await expect(page.getByLabel('E-mail me about transfers')).toBeChecked();
      await expectNoSidewaysScroll(page);

      const second = await submitDepositAs(page, '30');
      await admin().approveDeposit(second.id);
      await expect(page.getByTestId('unread-count')).toHaveText('1');
      // A transfer e-mail (still on) sent after it proves the deposit one was decided: skipped.
      const friend = newCustomer();
      const friendPage = await page.context().browser()!.newPage();
      await signUpThroughForm(friendPage, friend);
      await friendPage.close();
      const transfer = await page.request.post('/api/transfers', {
        data: { recipientEmail: friend.email, amount: '5', pin: customer.pin },
        headers: { origin: new URL(page.url()).origin },
      });
      expect(transfer.status()).toBe(201);
      await admin().approveTransfer(((await transfer.json()) as { transfer: { id: string } }).transfer.id);
      await waitForMail(customer.email, 'Subject: Transfer approved: 5.00 USDT');
      expect((await mailsTo(customer.email)).filter((message) => message.decoded.includes('Subject: Deposit credited'))).toHaveLength(1);
    });
  });
}
