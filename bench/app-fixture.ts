// What the measured requests need, made through the app's own API: an admin, a customer with a
// history of 200 approved deposits, eight customers with money, a bank account and a PIN, and for
// the burst scenario one more such customer (the burster) and a customer who only reads (the bystander).
import { randomBytes, randomInt } from 'node:crypto';
import pg from 'pg';
import { CONSENT_NOTICE_VERSION } from '#shared/contracts/operator-identity';

export const BENCH_ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };
const CUSTOMER_PASSWORD = 'bench-password';
export const WITHDRAWING_CUSTOMERS = 8;
const HISTORY_DEPOSITS = 200;
const QUEUED_REQUESTS = 40;
export const HISTORY_PAGE_SIZE = 20;
/** The history page the "deep page" scenario reads (the ninth of ten). */
const DEEP_PAGE = 9;

interface Answer {
  status: number;
  json: unknown;
  cookie: string | undefined;
}

export interface WithdrawingCustomer {
  cookie: string;
  bankAccountId: string;
  pin: string;
}

/** The customer of the burst scenario: money, a bank account and a PIN of their own. */
export type BurstCustomer = WithdrawingCustomer;

export interface AppFixture {
  origin: string;
  adminCookie: string;
  customerCookie: string;
  customerUserId: string;
  /** The cursor of the ninth history page of the customer. */
  deepHistoryCursor: string;
  withdrawingCustomers: WithdrawingCustomer[];
  burster: BurstCustomer;
  bystanderCookie: string;
}

function client(origin: string) {
  return async function call(method: string, url: string, body?: unknown, cookie?: string): Promise<Answer> {
    const response = await fetch(`${origin}${url}`, {
      method,
      headers: { origin, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const answer = { status: response.status, json: await response.json().catch(() => undefined), cookie: response.headers.get('set-cookie')?.split(';')[0] };
    if (answer.status >= 300) throw new Error(`${method} ${url} failed: ${answer.status} ${JSON.stringify(answer.json)}`);
    return answer;
  };
}

/** A person's PAN (fourth letter P) no other bench customer has. */
function uniquePan(): string {
  const letter = () => String.fromCharCode(65 + randomInt(26));
  return `${letter()}${letter()}${letter()}P${letter()}${String(randomInt(10_000)).padStart(4, '0')}${letter()}`;
}

export async function prepareApp(origin: string, databaseUrl: string, log: (message: string) => void): Promise<AppFixture> {
  const call = client(origin);
  const database = new pg.Client({ connectionString: databaseUrl });
  await database.connect();
  const admin = await call('POST', '/api/auth/login', { email: BENCH_ADMIN.email, password: BENCH_ADMIN.password });
  const adminCookie = admin.cookie as string;
  await call('POST', '/api/pin/setup', { pin: '1357' }, adminCookie);
  const settings = (await call('GET', '/api/admin/settings', undefined, adminCookie)).json as Record<string, unknown>;
  const { files: _files, updatedAt, updatedBy: _updatedBy, canEdit: _canEdit, ...editable } = settings;
  await call('PUT', '/api/admin/settings', { ...editable, trc20Address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', expectedUpdatedAt: updatedAt }, adminCookie);

  async function customer(name: string, pin: string): Promise<{ cookie: string; userId: string; bankAccountId: string; email: string }> {
    const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
    const signUp = await call('POST', '/api/auth/signup', { fullName: name, email, phone: '+919812345678', password: CUSTOMER_PASSWORD, pin });
    const cookie = signUp.cookie as string;
    await call('POST', '/api/pin/verify', { pin }, cookie);
    const me = (await call('GET', '/api/me', undefined, cookie)).json as { id: string };
    // KYC level 1 (decision 042), which money leaving an account needs: the e-mail link and the mobile code have
    // their own tests, so the bench marks them done in the database; the PAN (verified by the admin, no provider
    // runs here) and the tax residence go through the API.
    await database.query('update users set email_verified_at = now() where id = $1', [me.id]);
    await database.query('update profiles set phone_verified_at = now() where user_id = $1', [me.id]);
    await call('POST', '/api/kyc/consent', { noticeVersion: CONSENT_NOTICE_VERSION }, cookie);
    await call('POST', '/api/kyc/pan', { pan: uniquePan() }, cookie);
    await call('POST', `/api/admin/kyc/pan-reviews/${me.id}/approve`, { registeredName: name }, adminCookie);
    await call('POST', '/api/kyc/tax-residence', { residence: 'india', confirmed: true }, cookie);
    const bankAccount = (
      await call(
        'POST',
        '/api/bank-accounts',
        { accountHolderName: name, accountNumber: '123456789012', accountNumberConfirmation: '123456789012', ifscCode: 'SBIN0001234' },
        cookie,
      )
    ).json as { bankAccount: { id: string } };
    return { cookie, userId: me.id, bankAccountId: bankAccount.bankAccount.id, email };
  }

  async function approvedDeposit(cookie: string, amount: string): Promise<void> {
    const deposit = (await call('POST', '/api/deposits', { network: 'TRC20', amount, transactionHash: randomBytes(32).toString('hex') }, cookie)).json as {
      deposit: { id: string };
    };
    await call('POST', `/api/admin/deposits/${deposit.deposit.id}/approve`, {}, adminCookie);
  }

  // "Kumar" is also the common surname of the seeded customers (bench/seed-scale.sql), so the
  // search for it finds these customers on an empty database as well.
  const main = await customer('Bench Kumar', '2468');
  log(`Seeding ${HISTORY_DEPOSITS} approved deposits through the API...`);
  for (let index = 0; index < HISTORY_DEPOSITS; index += 1) await approvedDeposit(main.cookie, '25');

  const withdrawingCustomers: (WithdrawingCustomer & { email: string })[] = [];
  for (let index = 0; index < WITHDRAWING_CUSTOMERS; index += 1) {
    // Steps of 97 from 2013 give no PIN the weak-PIN rule refuses (2222 was one, from steps of 111).
    const pin = String(2013 + index * 97);
    const someone = await customer(`Bench Withdrawer ${String.fromCharCode(65 + index)}`, pin);
    await approvedDeposit(someone.cookie, '100000');
    withdrawingCustomers.push({ cookie: someone.cookie, bankAccountId: someone.bankAccountId, pin, email: someone.email });
  }
  // Each admin queue (deposits, withdrawals, transfers) holds more than a page before any measurement,
  // on the empty database as on the seeded one, whichever is measured first.
  log(`Seeding ${QUEUED_REQUESTS} pending deposits, withdrawals and transfers each...`);
  for (let index = 0; index < QUEUED_REQUESTS; index += 1) {
    const someone = withdrawingCustomers[index % withdrawingCustomers.length] as WithdrawingCustomer & { email: string };
    const recipient = withdrawingCustomers[(index + 1) % withdrawingCustomers.length] as WithdrawingCustomer & { email: string };
    await call('POST', '/api/withdrawals', { amount: '1', bankAccountId: someone.bankAccountId, pin: someone.pin }, someone.cookie);
    await call('POST', '/api/deposits', { network: 'TRC20', amount: '25', transactionHash: randomBytes(32).toString('hex') }, someone.cookie);
    await call('POST', '/api/transfers', { recipientEmail: recipient.email, amount: '1', pin: someone.pin }, someone.cookie);
  }

  const bursterPin = '3579';
  const burster = await customer('Bench Burster', bursterPin);
  await approvedDeposit(burster.cookie, '100000');
  const bystander = await customer('Bench Bystander', '8642');

  let cursor: string | null = null;
  for (let page = 1; page < DEEP_PAGE; page += 1) {
    const list = (await call('GET', `/api/transactions?limit=${HISTORY_PAGE_SIZE}${cursor ? `&cursor=${cursor}` : ''}`, undefined, main.cookie)).json as {
      nextCursor: string | null;
    };
    cursor = list.nextCursor;
    if (!cursor) throw new Error(`the customer's history has fewer than ${DEEP_PAGE} pages`);
  }
  await database.end();
  return {
    origin,
    adminCookie,
    customerCookie: main.cookie,
    customerUserId: main.userId,
    deepHistoryCursor: cursor as string,
    withdrawingCustomers,
    burster: { cookie: burster.cookie, bankAccountId: burster.bankAccountId, pin: bursterPin },
    bystanderCookie: bystander.cookie,
  };
}
