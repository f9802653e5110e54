import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_CLOSING_MESSAGES } from '#shared/contracts/account-closing';
import type { AdminUserDetail } from '#shared/contracts/admin';
import type { DepositAddressAnswer } from '#shared/contracts/deposit-addresses';
import { notificationListResponseSchema } from '#shared/contracts/notifications';
import { noticeMoneyInClosedAccounts } from '../../src/server/features/auth/closed-account-money.ts';
import type { ChainWorker } from '../../src/server/features/chain/worker.ts';
import { tronAddressFromAccountId } from '../../src/server/features/settings/addresses.ts';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { startTronTestBed, tickUntil, type TronTestBed } from '../fixtures/chain.ts';
import { call, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import type { TronStandIn } from '../fixtures/tron-stand-in.ts';
import { MAINNET_USDT_TRC20 } from '../fixtures/tron-shapes.ts';
import { balanceMicros, expectLedgerConsistent, expectStatus } from '../fixtures/wallet.ts';

/*
 * Money that reaches a closed account (decision 060): a transfer to the customer's own TRON deposit address, which
 * the follower credits as for any customer, against the local stand-in of a java-tron node. Every admin is told
 * once per rise of the balance, and an admin can reopen the account so that its owner can withdraw the money.
 */

const OPERATOR = tronAddressFromAccountId(Buffer.alloc(20, 9));
const STRANGER = tronAddressFromAccountId(Buffer.alloc(20, 5));
let tron: TronStandIn;
let harness: TestApp;
let worker: ChainWorker;
let admin: SignedUpUser;
let bed: TronTestBed;

beforeAll(async () => {
  bed = await startTronTestBed(OPERATOR);
  ({ tron, harness, worker } = bed);
  admin = await signUpAdminWithVerifiedPin(harness);
}, 120_000);
afterEach(async () => expectLedgerConsistent(harness));
afterAll(async () => {
  await bed.close();
});

const db = () => harness.database.handle.db;

/** A customer with a TRON address of their own, whose account is then closed (with a zero balance). */
async function closedCustomerWithAddress(): Promise<{ user: SignedUpUser; address: string }> {
  const user = await signUpVerifiedUser(harness.app);
  const response = await call(harness.app, { url: '/api/deposits/address?network=TRC20', cookie: user.cookie });
  expectStatus(response, 200);
  const { address } = response.json<DepositAddressAnswer>();
  expectStatus(await call(harness.app, { method: 'POST', url: '/api/auth/close-account', cookie: user.cookie, body: { currentPassword: user.password } }), 200);
  return { user, address };
}

function finalTransfer(to: string, amount: bigint): void {
  const id = randomBytes(32).toString('hex');
  tron.addTransfer({ id, contract: MAINNET_USDT_TRC20, from: STRANGER, to, amount });
  tron.solidify(id);
}

async function adminNoticesAbout(userId: string) {
  const response = await call(harness.app, { url: '/api/notifications', cookie: admin.cookie });
  expectStatus(response, 200);
  return notificationListResponseSchema
    .parse(response.json())
    .items.filter((item) => item.kind === 'closed_account_money' && item.link === `/admin/users/${userId}`);
}

function reopen(userId: string, cookie: string | undefined, body: unknown = { reason: 'Money arrived after the close' }) {
  return call(harness.app, { method: 'POST', url: `/api/admin/users/${userId}/reopen`, cookie, body });
}

async function outboxSubjects(email: string): Promise<string[]> {
  const result = await db().execute<{ subject: string }>(
    sql`select subject from mail_outbox where lower(to_address) = ${email.toLowerCase()} order by created_at`,
  );
  return result.rows.map((row) => row.subject);
}

describe('money that reaches a closed account', () => {
  it('is credited as the chain says, every admin is told once per rise, and the admin page shows the account closed', async () => {
    const { user, address } = await closedCustomerWithAddress();
    finalTransfer(address, 25_000_000n);
    await tickUntil(worker, async () => (await balanceMicros(harness, user.id)) === 25_000_000n);

    expect(await noticeMoneyInClosedAccounts(db())).toBe(1);
    const notices = await adminNoticesAbout(user.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.title).toBe('Money arrived for a closed account');
    expect(notices[0]?.body).toContain(`The closed account of ${user.email} now holds 25.00 USDT.`);
    // A second look, here or in another process, finds nothing new to tell.
    expect(await Promise.all([noticeMoneyInClosedAccounts(db()), noticeMoneyInClosedAccounts(db())])).toEqual([0, 0]);
    expect(await adminNoticesAbout(user.id)).toHaveLength(1);

    finalTransfer(address, 15_000_000n);
    await tickUntil(worker, async () => (await balanceMicros(harness, user.id)) === 40_000_000n);
    expect(await noticeMoneyInClosedAccounts(db())).toBe(1);
    const again = await adminNoticesAbout(user.id);
    expect(again).toHaveLength(2);
    expect(again.map((item) => item.body).join('\n')).toContain('now holds 40.00 USDT.');

    const detail = await call(harness.app, { url: `/api/admin/users/${user.id}`, cookie: admin.cookie });
    expectStatus(detail, 200);
    expect(detail.json<AdminUserDetail>().closedAt).not.toBeNull();
    expect(detail.json<AdminUserDetail>().balanceUsdt).toBe('40.000000');
  });

  it('tells no one about an open account, nor about a closed one whose balance did not rise', async () => {
    const open = await signUpVerifiedUser(harness.app);
    const { user: closed } = await closedCustomerWithAddress();
    expect(await noticeMoneyInClosedAccounts(db())).toBe(0);
    expect(await adminNoticesAbout(open.id)).toEqual([]);
    expect(await adminNoticesAbout(closed.id)).toEqual([]);
  });
});

describe('POST /api/admin/users/:id/reopen', () => {
  it('reopens a closed account with a reason: its owner signs in again with the same password, is told by e-mail, and the audit log says who and why', async () => {
    const { user } = await closedCustomerWithAddress();
    const refused = await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: user.email, password: user.password } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'ACCOUNT_CLOSED', message: ACCOUNT_CLOSING_MESSAGES.signInRefused });

    const answer = await reopen(user.id, admin.cookie);
    expectStatus(answer, 200);
    expect(answer.json()).toEqual({ message: ACCOUNT_CLOSING_MESSAGES.reopened });
    const detail = await call(harness.app, { url: `/api/admin/users/${user.id}`, cookie: admin.cookie });
    expect(detail.json<AdminUserDetail>().closedAt).toBeNull();

    const login = await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: user.email, password: user.password } });
    expectStatus(login, 200);
    expect(await outboxSubjects(user.email)).toContain('Rupeedesk: your account is open again');
    const audits = await db().execute<{ actor_user_id: string; after: { reason: string } }>(
      sql`select actor_user_id, after from audit_log where action = 'account.reopen' and target_user_id = ${user.id}`,
    );
    expect(audits.rows).toEqual([{ actor_user_id: admin.id, after: { reason: 'Money arrived after the close' } }]);
  });

  it('answers 409 for an account that is not closed, 404 for an unknown user, 400 without a reason, and changes nothing', async () => {
    const open = await signUpVerifiedUser(harness.app);
    const notClosed = await reopen(open.id, admin.cookie);
    expect(notClosed.statusCode).toBe(409);
    expect(notClosed.json().error).toMatchObject({ code: 'ACCOUNT_NOT_CLOSED', message: ACCOUNT_CLOSING_MESSAGES.notClosed });

    const unknownId = '00000000-0000-4000-8000-000000000000';
    const unknown = await reopen(unknownId, admin.cookie);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(`User with ID ${unknownId} was not found`);

    const { user: closed } = await closedCustomerWithAddress();
    for (const body of [{}, { reason: '   ' }, { reason: 'x'.repeat(501) }]) {
      const bad = await reopen(closed.id, admin.cookie, body);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.reason).toBeTruthy();
    }
    const stillClosed = await call(harness.app, { url: `/api/admin/users/${closed.id}`, cookie: admin.cookie });
    expect(stillClosed.json<AdminUserDetail>().closedAt).not.toBeNull();
    const audits = await db().execute(sql`select 1 from audit_log where action = 'account.reopen' and target_user_id in (${open.id}, ${closed.id})`);
    expect(audits.rows).toEqual([]);
  });

  it('is refused to customers and to the signed-out, and reopens nothing', async () => {
    const { user: closed } = await closedCustomerWithAddress();
    const customer = await signUpVerifiedUser(harness.app);
    expect((await reopen(closed.id, customer.cookie)).statusCode).toBe(403);
    expect((await reopen(closed.id, undefined)).statusCode).toBe(401);
    const detail = await call(harness.app, { url: `/api/admin/users/${closed.id}`, cookie: admin.cookie });
    expect(detail.json<AdminUserDetail>().closedAt).not.toBeNull();
  });
});
