// API helpers for browser tests: act as the e2e admin (approve, reject, settings) or set up a customer,
// through the same HTTP API the web app uses. Every answer is parsed with its contract schema.
import { expect, request, type APIRequestContext, type APIResponse, type Page } from '@playwright/test';
import type { z } from 'zod';
import { meResponseSchema, sessionResponseSchema } from '#shared/contracts/auth';
import { bankAccountResponseSchema, type BankAccountInput } from '#shared/contracts/bank-accounts';
import {
  adminDepositDecisionResponseSchema,
  adminDepositListResponseSchema,
  depositResponseSchema,
  type AdminDeposit,
  type Deposit,
} from '#shared/contracts/deposits';
import { adminSettingsResponseSchema, updateSettingsResponseSchema, type AdminSettings, type UpdateSettingsRequest } from '#shared/contracts/settings';
import { adminTransferDecisionResponseSchema, adminTransferListResponseSchema, type AdminTransfer } from '#shared/contracts/transfers';
import {
  adminWithdrawalDecisionResponseSchema,
  adminWithdrawalListResponseSchema,
  withdrawalResponseSchema,
  type AdminWithdrawal,
  type Withdrawal,
  type WithdrawalRequest,
} from '#shared/contracts/withdrawals';
import { KNOWN_TRON_ADDRESS } from '../../fixtures/addresses.ts';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_BASE_URL } from './constants.ts';
import type { NewCustomer } from './helpers.ts';

/** The PIN the browser tests give the e2e admin (it has none until a test sets it). */
export const E2E_ADMIN_PIN = '1357';
/** A TRON address that passes the app's checksum (tests/fixtures/addresses.ts), for the TRC20 deposit address when none is set up. */
export const E2E_TRC20_ADDRESS = KNOWN_TRON_ADDRESS;

let hashCounter = 0;
/** A TRC20 transaction hash (64 hex characters) that no other test uses. */
export function uniqueTrc20Hash(): string {
  hashCounter += 1;
  const seed = `${Date.now().toString(16)}${process.pid.toString(16)}${hashCounter.toString(16).padStart(4, '0')}`;
  const random = Array.from({ length: 64 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  return (seed + random).slice(0, 64);
}

async function parsed<T extends z.ZodType>(response: APIResponse, schema: T, what: string): Promise<z.output<T>> {
  const text = await response.text();
  expect(response.ok(), `${what} answered ${response.status()}: ${text}`).toBe(true);
  return schema.parse(JSON.parse(text));
}

/** A signed-in API session (cookie jar) that sends the Origin header the server's CSRF check wants. */
async function newApiContext(baseURL: string): Promise<APIRequestContext> {
  return request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
}

/** The e2e admin, logged in with its PIN verified. Open one per test file: logins are rate limited per account. */
export class AdminApi {
  private constructor(readonly context: APIRequestContext) {}

  static async open(baseURL: string = E2E_BASE_URL): Promise<AdminApi> {
    const context = await newApiContext(baseURL);
    await parsed(
      await context.post('/api/auth/login', { data: { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD } }),
      sessionResponseSchema,
      'admin login',
    );
    const me = await parsed(await context.get('/api/me'), meResponseSchema, 'GET /api/me');
    if (!me.hasPin) {
      const setup = await context.post('/api/pin/setup', { data: { pin: E2E_ADMIN_PIN } });
      // 409: another test set it up in the meantime; verify below.
      if (setup.ok()) return new AdminApi(context);
      expect(setup.status(), await setup.text()).toBe(409);
    }
    const verify = await context.post('/api/pin/verify', { data: { pin: E2E_ADMIN_PIN } });
    expect(verify.ok(), `the e2e admin's PIN must be ${E2E_ADMIN_PIN}: ${await verify.text()}`).toBe(true);
    return new AdminApi(context);
  }

  async dispose(): Promise<void> {
    await this.context.dispose();
  }

  /** Deposits need a deposit address for their network; a fresh server has none. */
  async ensureTrc20DepositAddress(): Promise<string> {
    const settings = await parsed(await this.context.get('/api/admin/settings'), adminSettingsResponseSchema, 'GET /api/admin/settings');
    if (settings.trc20Address !== '') return settings.trc20Address;
    const { files: _files, updatedAt, updatedBy: _updatedBy, canEdit: _canEdit, ...editable } = settings;
    await parsed(
      await this.context.put('/api/admin/settings', { data: { ...editable, trc20Address: E2E_TRC20_ADDRESS, expectedUpdatedAt: updatedAt } }),
      updateSettingsResponseSchema,
      'PUT /api/admin/settings',
    );
    return E2E_TRC20_ADDRESS;
  }

  /** Saves the settings form with these fields changed and the others as they are (e.g. the rates). */
  async updateSettings(changes: Partial<UpdateSettingsRequest>): Promise<AdminSettings> {
    const settings = await parsed(await this.context.get('/api/admin/settings'), adminSettingsResponseSchema, 'GET /api/admin/settings');
    const { files: _files, updatedAt, updatedBy: _updatedBy, canEdit: _canEdit, ...editable } = settings;
    const saved = await parsed(
      // Tests set rates far apart on purpose: the confirmation the web app asks for is given.
      await this.context.put('/api/admin/settings', { data: { ...editable, ...changes, expectedUpdatedAt: updatedAt, confirmedLargeRateChange: true } }),
      updateSettingsResponseSchema,
      'PUT /api/admin/settings',
    );
    return saved.settings;
  }

  /** Waits until the pending deposit with this hash is listed. */
  async findPendingDeposit(transactionHash: string): Promise<AdminDeposit> {
    let found: AdminDeposit | undefined;
    await expect
      .poll(
        async () => {
          const list = await parsed(
            await this.context.get('/api/admin/deposits?status=pending&limit=100'),
            adminDepositListResponseSchema,
            'GET /api/admin/deposits',
          );
          found = list.items.find((deposit) => deposit.transactionHash === transactionHash.toLowerCase());
          return found !== undefined;
        },
        { message: `pending deposit with hash ${transactionHash}` },
      )
      .toBe(true);
    return found as AdminDeposit;
  }

  async approveDeposit(id: string): Promise<AdminDeposit> {
    return (await parsed(await this.context.post(`/api/admin/deposits/${id}/approve`), adminDepositDecisionResponseSchema, 'approve deposit')).deposit;
  }

  async rejectDeposit(id: string, reason?: string): Promise<AdminDeposit> {
    const response = await this.context.post(`/api/admin/deposits/${id}/reject`, { data: reason ? { reason } : {} });
    return (await parsed(response, adminDepositDecisionResponseSchema, 'reject deposit')).deposit;
  }

  /** Waits until a pending withdrawal of this customer is listed. */
  async findPendingWithdrawal(customerEmail: string): Promise<AdminWithdrawal> {
    let found: AdminWithdrawal | undefined;
    await expect
      .poll(
        async () => {
          const list = await parsed(
            await this.context.get('/api/admin/withdrawals?status=pending&limit=100'),
            adminWithdrawalListResponseSchema,
            'GET /api/admin/withdrawals',
          );
          found = list.items.find((withdrawal) => withdrawal.user.email === customerEmail.toLowerCase());
          return found !== undefined;
        },
        { message: `pending withdrawal of ${customerEmail}` },
      )
      .toBe(true);
    return found as AdminWithdrawal;
  }

  /** Records a payment made by hand, which needs its UTR (decision 049): a 12-digit RRN of IMPS or UPI. */
  async approveWithdrawal(id: string, payoutReference: string): Promise<AdminWithdrawal> {
    const response = await this.context.post(`/api/admin/withdrawals/${id}/approve`, { data: { payoutReference } });
    return (await parsed(response, adminWithdrawalDecisionResponseSchema, 'approve withdrawal')).withdrawal;
  }

  async rejectWithdrawal(id: string, reason?: string): Promise<AdminWithdrawal> {
    const response = await this.context.post(`/api/admin/withdrawals/${id}/reject`, { data: reason ? { reason } : {} });
    return (await parsed(response, adminWithdrawalDecisionResponseSchema, 'reject withdrawal')).withdrawal;
  }

  /** Waits until a pending transfer sent by this customer is listed. */
  async findPendingTransfer(senderEmail: string): Promise<AdminTransfer> {
    let found: AdminTransfer | undefined;
    await expect
      .poll(
        async () => {
          const list = await parsed(
            await this.context.get('/api/admin/transfers?status=pending&limit=100'),
            adminTransferListResponseSchema,
            'GET /api/admin/transfers',
          );
          found = list.items.find((transfer) => transfer.sender.email === senderEmail.toLowerCase());
          return found !== undefined;
        },
        { message: `pending transfer from ${senderEmail}` },
      )
      .toBe(true);
    return found as AdminTransfer;
  }

  async approveTransfer(id: string): Promise<AdminTransfer> {
    return (await parsed(await this.context.post(`/api/admin/transfers/${id}/approve`), adminTransferDecisionResponseSchema, 'approve transfer')).transfer;
  }

  async rejectTransfer(id: string, reason?: string): Promise<AdminTransfer> {
    const response = await this.context.post(`/api/admin/transfers/${id}/reject`, { data: reason ? { reason } : {} });
    return (await parsed(response, adminTransferDecisionResponseSchema, 'reject transfer')).transfer;
  }
}

/** Signs a customer up through the API (no browser), e.g. the recipient of a transfer; the session is thrown away. */
export async function signUpThroughApi(customer: NewCustomer, baseURL: string = E2E_BASE_URL): Promise<void> {
  const context = await newApiContext(baseURL);
  try {
    await parsed(
      await context.post('/api/auth/signup', {
        data: { fullName: customer.name, email: customer.email, phone: customer.phone, password: customer.password, pin: customer.pin },
      }),
      sessionResponseSchema,
      'signup',
    );
  } finally {
    await context.dispose();
  }
}

/* ---------- customer actions through a signed-in browser page (its cookies), for the admin tests ---------- */

/** POSTs as the customer signed in on `page`, with the Origin header the CSRF check wants. */
async function postAsCustomer<T extends z.ZodType>(page: Page, path: string, data: unknown, schema: T): Promise<z.output<T>> {
  return parsed(await page.request.post(path, { data, headers: { origin: E2E_BASE_URL } }), schema, `POST ${path}`);
}

/** Submits a TRC20 deposit as the customer signed in on `page` (the TRC20 address must be set up). */
export async function submitDepositAs(page: Page, amount: string, transactionHash: string = uniqueTrc20Hash()): Promise<Deposit> {
  return (await postAsCustomer(page, '/api/deposits', { network: 'TRC20', amount, transactionHash }, depositResponseSchema)).deposit;
}

/** Saves a bank account for the customer signed in on `page` and returns its id. */
export async function addBankAccountAs(
  page: Page,
  account: Omit<BankAccountInput, 'accountNumberConfirmation'> & { accountNumberConfirmation?: string; bankName?: string },
): Promise<string> {
  // The bank's name comes from the IFSC (decision 044); the number is confirmed as typed unless the spec says otherwise.
  const { bankName: _fromTheIfsc, ...body } = account;
  return (await postAsCustomer(page, '/api/bank-accounts', { accountNumberConfirmation: account.accountNumber, ...body }, bankAccountResponseSchema))
    .bankAccount.id;
}

/** Requests a withdrawal (the PIN is checked by the server) as the customer signed in on `page`. */
export async function requestWithdrawalAs(page: Page, body: WithdrawalRequest): Promise<Withdrawal> {
  return (await postAsCustomer(page, '/api/withdrawals', body, withdrawalResponseSchema)).withdrawal;
}
