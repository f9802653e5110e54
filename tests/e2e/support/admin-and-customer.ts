import { expect, type Browser, type BrowserContext, type Page, type ViewportSize } from '@playwright/test';
import { AdminApi, E2E_ADMIN_PIN } from './admin-api.ts';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD } from './constants.ts';
import { logInThroughForm, newCustomer, signUpThroughForm, type NewCustomer } from './helpers.ts';

/**
 * An admin browser and a customer browser side by side (two contexts), for the admin specs: logins
 * and sign-ups are rate limited, so a spec opens them once and its tests share them in order.
 */
export interface AdminAndCustomer {
  adminApi: AdminApi;
  adminContext: BrowserContext;
  adminPage: Page;
  customerContext: BrowserContext;
  customerPage: Page;
  customer: NewCustomer;
  close(): Promise<void>;
}

export async function openAdminAndCustomer(
  browser: Browser,
  options: { customer: Partial<NewCustomer>; adminViewport?: ViewportSize; customerViewport?: ViewportSize; clipboard?: boolean; kycLevelOne?: boolean },
): Promise<AdminAndCustomer> {
  const adminApi = await AdminApi.open();
  await adminApi.ensureTrc20DepositAddress();
  const adminContext = await browser.newContext(options.adminViewport ? { viewport: options.adminViewport } : {});
  if (options.clipboard) await adminContext.grantPermissions(['clipboard-read', 'clipboard-write']);
  const adminPage = await adminContext.newPage();
  await logInThroughForm(adminPage, E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_ADMIN_PIN);
  const customerContext = await browser.newContext(options.customerViewport ? { viewport: options.customerViewport } : {});
  const customerPage = await customerContext.newPage();
  const customer = newCustomer(options.customer);
  await signUpThroughForm(customerPage, customer, { kycLevelOne: options.kycLevelOne ?? true });
  return {
    adminApi,
    adminContext,
    adminPage,
    customerContext,
    customerPage,
    customer,
    close: async () => {
      await adminContext.close();
      await customerContext.close();
      await adminApi.dispose();
    },
  };
}

/** Fills and saves the Add Bank Account dialog on the bank accounts page, and waits for it to close. */
export async function addBankAccountThroughForm(
  page: Page,
  account: { holder: string; number: string; bank: string; ifsc: string; upi?: string },
  options: { expectSaved?: boolean } = {},
): Promise<void> {
  await page.getByRole('button', { name: 'Add Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Bank Account' });
  await dialog.getByLabel('Account Holder Name').fill(account.holder);
  await dialog.getByLabel('Account Number', { exact: true }).fill(account.number);
  await dialog.getByLabel('Confirm Account Number').fill(account.number);
  await dialog.getByLabel('IFSC Code').fill(account.ifsc);
  // The bank is filled in from the IFSC (decision 044), not typed.
  if (options.expectSaved ?? true) await expect(dialog.getByTestId('ifsc-bank')).toContainText(account.bank);
  if (account.upi !== undefined) await dialog.getByLabel('UPI ID (optional)').fill(account.upi);
  await dialog.getByRole('button', { name: 'Add Account' }).click();
  if (options.expectSaved ?? true) await expect(dialog).toBeHidden();
}
