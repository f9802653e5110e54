import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_TRON_ADDRESS } from '../fixtures/addresses.ts';
import { currentSettingsBody, setRoleAndVipLevel, signUpAdminWithVerifiedPin, signUpVipCustomer } from '../fixtures/admin.ts';
import { call, sessionCookieOf, signUpUser, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { addBankAccount, expectStatus, fundWallet, requestTransfer, requestWithdrawal, submitDeposit } from '../fixtures/wallet.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

// Every balance these tests see comes from real deposits, withdrawals and transfers: the ledger must stay consistent.
const { harness, admin } = useIntegrationFile({ depositAddresses: false });
let vip: SignedUpUser;
let customer: SignedUpUser;

beforeAll(async () => {
  vip = await signUpVipCustomer(harness);
  // PIN-verified: the customer deposits, withdraws and transfers through the API in these tests.
  customer = await signUpVerifiedUser(harness.app, { fullName: 'Plain Customer' });
  // The admin sets the deposit address, the rates and a minimum deposit low enough for the small amounts below.
  expectStatus(
    await call(harness.app, {
      method: 'PUT',
      url: '/api/admin/settings',
      cookie: admin.cookie,
      body: await currentSettingsBody(harness.app, admin.cookie, { normalRate: '83', vipRate: '83.25', trc20Address: KNOWN_TRON_ADDRESS, minDeposit: '0.5' }),
    }),
    200,
  );
});

const db = () => harness.database.handle.db;

describe('admin dashboard', () => {
  it('shows pending requests with their sums, customer balances and the user count', async () => {
    const other = await signUpVerifiedUser(harness.app, { fullName: 'Dashboard Recipient' });
    // Approved deposits count in the balances, not in the pending figures: 39 USDT for the customer, 0.5 for the other.
    await fundWallet(harness, admin, customer, '39');
    await fundWallet(harness, admin, other, '0.5');
    await submitDeposit(harness, customer, '1.5');
    await submitDeposit(harness, customer, '2.25');
    // A pending withdrawal (10 USDT at 83.00) and a pending transfer (4 USDT) hold their USDT out of the wallet: 39 - 10 - 4 = 25.
    const bankAccountId = await addBankAccount(harness, customer);
    expectStatus(await requestWithdrawal(harness, customer, { amount: '10', bankAccountId }), 201);
    expectStatus(await requestTransfer(harness, customer, { recipientEmail: other.email, amount: '4' }), 201);

    const response = await call(harness.app, { url: '/api/admin/dashboard', cookie: admin.cookie });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      pendingDeposits: { count: 2, totalUsdt: '3.750000' },
      pendingWithdrawals: { count: 1, totalUsdt: '10.000000', totalInr: '830.00' },
      processingWithdrawals: { count: 0, totalUsdt: '0.000000', totalInr: '0.00', oldestAt: null },
      pendingTransfers: { count: 1, totalUsdt: '4.000000' },
      customerBalancesUsdt: '25.500000',
      books: { customerBalancesUsdt: '25.500000', differenceUsdt: '0.000000', balanced: true },
      openPayoutBatches: [],
      // The admin, the VIP customer, the customer and the other customer: nobody else has signed up yet.
      userCount: 4,
    });
  });

  it('refuses the figures to a VIP-level customer as to any customer: VIP is a rate tier, not an operator', async () => {
    const response = await call(harness.app, { url: '/api/admin/dashboard', cookie: vip.cookie });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toBe('Access denied');
    const refused = await call(harness.app, { url: '/api/admin/dashboard', cookie: customer.cookie });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('Access denied');
    expect((await call(harness.app, { url: '/api/admin/dashboard' })).json().error.code).toBe('UNAUTHENTICATED');
  });
});

describe('user search', () => {
  it('finds users by name, e-mail or phone ignoring case, with their balance', async () => {
    const token = `zq${Date.now().toString(36)}`;
    const target = await signUpVerifiedUser(harness.app, { fullName: `Zara ${token} Quinton`, email: `Mixed.${token}@Example.com`, phone: '+447700900123' });
    await fundWallet(harness, admin, target, '12.34');
    for (const q of [token.toUpperCase(), `mixed.${token}@example`, `ZARA ${token}`]) {
      const response = await call(harness.app, { url: `/api/admin/users?q=${encodeURIComponent(q)}`, cookie: admin.cookie });
      expect(response.statusCode).toBe(200);
      expect(response.json().items.map((item: { id: string }) => item.id)).toEqual([target.id]);
    }
    const byPhone = await call(harness.app, { url: `/api/admin/users?q=${encodeURIComponent('7700 900 123')}`, cookie: admin.cookie });
    expect(byPhone.json().items.map((item: { id: string }) => item.id)).toContain(target.id);
    const item = byPhone.json().items.find((candidate: { id: string }) => candidate.id === target.id);
    expect(item).toEqual({
      id: target.id,
      name: `Zara ${token} Quinton`,
      email: `Mixed.${token}@Example.com`,
      phone: '+447700900123',
      role: 'user',
      vipLevel: 'normal',
      balanceUsdt: '12.340000',
      createdAt: expect.any(String),
    });
  });

  it('matches within one field: the end of a name followed by the start of an e-mail finds nobody', async () => {
    const token = `sp${Date.now().toString(36)}`;
    const user = await signUpUser(harness.app, { fullName: `Nina ${token}end`, email: `start${token}@example.com` });
    const across = (await call(harness.app, { url: `/api/admin/users?q=${token}endstart`, cookie: admin.cookie })).json();
    expect(across.items).toEqual([]);
    const within = (await call(harness.app, { url: `/api/admin/users?q=${token}end`, cookie: admin.cookie })).json();
    expect(within.items.map((item: { id: string }) => item.id)).toEqual([user.id]);
  });

  it('treats % and _ in the search text as plain characters', async () => {
    const percent = await signUpUser(harness.app, { fullName: 'Hundred 100% Sure' });
    const underscore = await signUpUser(harness.app, { fullName: 'Under_score Person' });
    const byPercent = (await call(harness.app, { url: `/api/admin/users?q=${encodeURIComponent('100%')}`, cookie: admin.cookie })).json();
    expect(byPercent.items.map((item: { id: string }) => item.id)).toEqual([percent.id]);
    const byUnderscore = (await call(harness.app, { url: `/api/admin/users?q=${encodeURIComponent('_')}`, cookie: admin.cookie })).json();
    expect(byUnderscore.items.map((item: { id: string }) => item.id)).toEqual([underscore.id]);
    const byBackslash = (await call(harness.app, { url: `/api/admin/users?q=${encodeURIComponent('\\')}`, cookie: admin.cookie })).json();
    expect(byBackslash.items).toEqual([]);
  });

  it('pages through results newest first with a cursor, never repeating or skipping', async () => {
    const token = `pg${Date.now().toString(36)}`;
    const created: string[] = [];
    for (let index = 0; index < 5; index += 1) created.push((await signUpUser(harness.app, { fullName: `Pager ${token} ${index}` })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    const pageSizes: number[] = [];
    do {
      const url: string = `/api/admin/users?q=${token}&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (await call(harness.app, { url, cookie: admin.cookie })).json();
      pageSizes.push(page.items.length);
      seen.push(...page.items.map((item: { id: string }) => item.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(pageSizes).toEqual([2, 2, 1]);
    expect(seen).toEqual([...created].reverse());
  });

  it('lists everyone without a search text, and caps the page size', async () => {
    const all = await call(harness.app, { url: '/api/admin/users?limit=100', cookie: admin.cookie });
    expect(all.statusCode).toBe(200);
    expect(all.json().items.map((item: { id: string }) => item.id)).toEqual(expect.arrayContaining([admin.id, vip.id, customer.id]));
    for (const [url, message] of [
      ['/api/admin/users?limit=101', 'Page size must be at most 100'],
      ['/api/admin/users?limit=0', 'Page size must be a whole number from 1 to 100'],
      ['/api/admin/users?cursor=not-a-cursor', 'Invalid page cursor'],
      [`/api/admin/users?q=${'x'.repeat(101)}`, 'Search text must be at most 100 characters'],
    ] as const) {
      const response = await call(harness.app, { url, cookie: admin.cookie });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe(message);
    }
  });
});

describe('user details', () => {
  it('shows profile, balance and referral details', async () => {
    const referrer = await signUpUser(harness.app, { fullName: 'Referring Friend' });
    const referred = await signUpUser(harness.app, { fullName: 'Referred Friend', referralCode: referrer.referralCode });
    const referrerDetail = (await call(harness.app, { url: `/api/admin/users/${referrer.id}`, cookie: admin.cookie })).json();
    expect(referrerDetail).toMatchObject({
      id: referrer.id,
      referralCode: referrer.referralCode,
      referredBy: null,
      referralCount: 1,
      referralEarningsUsdt: '0.000000',
      hasPin: true,
      activeSessionCount: 1,
    });
    const referredDetail = await call(harness.app, { url: `/api/admin/users/${referred.id}`, cookie: admin.cookie });
    expect(referredDetail.statusCode).toBe(200);
    expect(referredDetail.json()).toMatchObject({
      name: 'Referred Friend',
      balanceUsdt: '0.000000',
      referredBy: { id: referrer.id, name: 'Referring Friend', email: referrer.email, referralCode: referrer.referralCode },
      referralCount: 0,
    });
  });

  it("answers 'User with ID {id} was not found' for an unknown user", async () => {
    const id = randomUUID();
    for (const request of [
      { url: `/api/admin/users/${id}` },
      { url: `/api/admin/users/${id}`, method: 'PATCH' as const, body: { vipLevel: 'vip' } },
      { url: `/api/admin/users/${id}/sessions/revoke`, method: 'POST' as const },
    ]) {
      const response = await call(harness.app, { ...request, cookie: admin.cookie });
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toEqual({ code: 'NOT_FOUND', message: `User with ID ${id} was not found` });
    }
    expect((await call(harness.app, { url: '/api/admin/users/not-a-uuid', cookie: admin.cookie })).statusCode).toBe(400);
  });
});

describe("a user's transactions", () => {
  it('shows who the user is and their history, newest first, filtered by type', async () => {
    const target = await signUpVerifiedUser(harness.app, { fullName: 'History Owner', phone: '+919812345678' });
    await fundWallet(harness, admin, target, '7');
    await submitDeposit(harness, target, '5');
    await submitDeposit(harness, target, '6');
    const response = await call(harness.app, { url: `/api/admin/users/${target.id}/transactions`, cookie: admin.cookie });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toEqual({ id: target.id, name: 'History Owner', email: target.email, phone: '+919812345678', balanceUsdt: '7.000000' });
    expect(
      body.items.map((item: { type: string; amount: string; currency: string; status: string }) => [item.type, item.amount, item.currency, item.status]),
    ).toEqual([
      ['deposit', '6.000000', 'USDT', 'pending'],
      ['deposit', '5.000000', 'USDT', 'pending'],
      ['deposit', '7.000000', 'USDT', 'approved'],
    ]);
    const firstPage = (await call(harness.app, { url: `/api/admin/users/${target.id}/transactions?limit=1`, cookie: admin.cookie })).json();
    expect(firstPage.items).toHaveLength(1);
    const secondPage = (
      await call(harness.app, {
        url: `/api/admin/users/${target.id}/transactions?limit=1&cursor=${encodeURIComponent(firstPage.nextCursor)}`,
        cookie: admin.cookie,
      })
    ).json();
    expect(secondPage.items[0].amount).toBe('5.000000');
    const withdrawals = (await call(harness.app, { url: `/api/admin/users/${target.id}/transactions?type=withdrawal`, cookie: admin.cookie })).json();
    expect(withdrawals.items).toEqual([]);
  });

  it("answers 'User with ID {id} was not found' for an unknown user, and an empty list for a new one", async () => {
    const id = randomUUID();
    const unknown = await call(harness.app, { url: `/api/admin/users/${id}/transactions`, cookie: admin.cookie });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(`User with ID ${id} was not found`);
    const fresh = await signUpUser(harness.app);
    const empty = (await call(harness.app, { url: `/api/admin/users/${fresh.id}/transactions`, cookie: admin.cookie })).json();
    expect(empty).toMatchObject({ items: [], nextCursor: null, user: { id: fresh.id, balanceUsdt: '0.000000' } });
  });
});

describe('changing role and VIP level', () => {
  it('sets the VIP level and records the change with before and after', async () => {
    const target = await signUpUser(harness.app, { fullName: 'Soon Vip' });
    const response = await call(harness.app, { method: 'PATCH', url: `/api/admin/users/${target.id}`, body: { vipLevel: 'vip2' }, cookie: admin.cookie });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ message: 'User updated successfully', user: { id: target.id, vipLevel: 'vip2', role: 'user' } });
    expect((await call(harness.app, { url: '/api/me', cookie: target.cookie })).json().vipLevel).toBe('vip2');

    const audit = (await call(harness.app, { url: `/api/admin/audit-log?targetUserId=${target.id}`, cookie: admin.cookie })).json();
    expect(audit.items).toHaveLength(1);
    expect(audit.items[0]).toMatchObject({
      action: 'user.update',
      actor: { id: admin.id, name: 'Admin Person', email: admin.email },
      targetType: 'user',
      targetId: target.id,
      targetUser: { id: target.id, name: 'Soon Vip', email: target.email },
      before: { role: 'user', vipLevel: 'normal' },
      after: { role: 'user', vipLevel: 'vip2' },
    });
    expect(audit.items[0].ipAddress).toBeTruthy();
  });

  it('does not grant the admin role on a single admin’s word: the server’s command is the only way then', async () => {
    const target = await signUpUser(harness.app, { fullName: 'Not Yet Admin' });
    const auditBefore = (await db().execute<{ count: number }>(sql`select count(*)::int as count from audit_log`)).rows[0]?.count;
    const refused = await call(harness.app, {
      method: 'PATCH',
      url: `/api/admin/users/${target.id}`,
      body: { role: 'admin', vipLevel: 'vip' },
      cookie: admin.cookie,
    });
    expect(refused.statusCode).toBe(409);
    const message = 'With a single admin, the admin role is granted on the server only: npm run admin -- promote <email>.';
    expect(refused.json().error).toEqual({ code: 'CONFLICT', message, fields: { role: message } });
    expect((await call(harness.app, { url: '/api/me', cookie: target.cookie })).json()).toMatchObject({ role: 'user', vipLevel: 'normal' });
    expect((await db().execute<{ count: number }>(sql`select count(*)::int as count from audit_log`)).rows[0]?.count).toBe(auditBefore);
  });

  it('with a second admin, grants the admin role only when that admin confirms, and takes it away only when another admin confirms', async () => {
    const second = await signUpAdminWithVerifiedPin(harness, { fullName: 'Checking Admin' });
    const target = await signUpUser(harness.app, { fullName: 'Soon Admin' });
    expect((await call(harness.app, { url: '/api/admin/users', cookie: target.cookie })).statusCode).toBe(403);

    const asked = await call(harness.app, {
      method: 'PATCH',
      url: `/api/admin/users/${target.id}`,
      body: { role: 'admin', vipLevel: 'vip1' },
      cookie: admin.cookie,
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toMatchObject({
      message: 'Granting the admin role waits for a second admin to confirm it; until then this user keeps their current role.',
      user: { id: target.id, role: 'user', vipLevel: 'vip1' },
      pendingChange: {
        kind: 'admin_role_grant',
        from: 'User',
        to: 'Admin',
        summary: `Admin role for Soon Admin (${target.email})`,
        requestedBy: { id: admin.id },
      },
    });
    expect((await call(harness.app, { url: '/api/admin/users', cookie: target.cookie })).statusCode).toBe(403);
    const again = await call(harness.app, { method: 'PATCH', url: `/api/admin/users/${target.id}`, body: { role: 'admin' }, cookie: second.cookie });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('Granting the admin role to this user already waits for a second admin: confirm or discard it first.');

    const changeId = asked.json().pendingChange.id as string;
    const own = await call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${changeId}/confirm`, cookie: admin.cookie, body: {} });
    expect(own.statusCode).toBe(403);
    expect((await call(harness.app, { url: '/api/me', cookie: target.cookie })).json().role).toBe('user');

    const confirmed = await call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${changeId}/confirm`, cookie: second.cookie, body: {} });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await call(harness.app, { url: '/api/me', cookie: target.cookie })).json()).toMatchObject({ role: 'admin', vipLevel: 'vip1' });
    expect((await call(harness.app, { url: '/api/admin/users', cookie: target.cookie })).statusCode).toBe(200);
    const grants = (await call(harness.app, { url: `/api/admin/audit-log?targetUserId=${target.id}&action=user.update`, cookie: admin.cookie })).json().items;
    expect(grants[0]).toMatchObject({ actor: { id: second.id }, before: { role: 'user' }, after: { role: 'admin' } });

    // Taking the role away waits too: otherwise one admin could demote the others and then act alone.
    const removal = await call(harness.app, { method: 'PATCH', url: `/api/admin/users/${target.id}`, body: { role: 'user' }, cookie: admin.cookie });
    expect(removal.statusCode, removal.body).toBe(202);
    expect(removal.json()).toMatchObject({
      message:
        'Taking the admin role away waits for a second admin to confirm it (the admin concerned may); until then this user stays an admin. On the server, npm run admin -- demote <email> takes it away at once.',
      user: { id: target.id, role: 'admin' },
      pendingChange: {
        kind: 'admin_role_removal',
        from: 'Admin',
        to: 'User',
        summary: `Admin role taken from Soon Admin (${target.email})`,
        requestedBy: { id: admin.id },
      },
    });
    expect((await call(harness.app, { url: '/api/admin/users', cookie: target.cookie })).statusCode).toBe(200);
    const removalAgain = await call(harness.app, { method: 'PATCH', url: `/api/admin/users/${target.id}`, body: { role: 'user' }, cookie: second.cookie });
    expect(removalAgain.statusCode).toBe(409);
    expect(removalAgain.json().error.message).toBe('Taking the admin role from this user already waits for a second admin: confirm or discard it first.');
    const removalId = removal.json().pendingChange.id as string;
    expect(
      (await call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${removalId}/confirm`, cookie: admin.cookie, body: {} })).statusCode,
    ).toBe(403);
    const removed = await call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${removalId}/confirm`, cookie: second.cookie, body: {} });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await call(harness.app, { url: '/api/admin/users', cookie: target.cookie })).statusCode).toBe(403);
    const removals = (await call(harness.app, { url: `/api/admin/audit-log?targetUserId=${target.id}&action=user.update`, cookie: admin.cookie })).json().items;
    expect(removals[0]).toMatchObject({ actor: { id: second.id }, before: { role: 'admin' }, after: { role: 'user' } });
    await setRoleAndVipLevel(harness, second.id, { role: 'user' });
  });

  it('does not let an admin change their own VIP level (the VIP rate pays more rupees per USDT)', async () => {
    const before = (await call(harness.app, { url: `/api/admin/users/${admin.id}`, cookie: admin.cookie })).json().vipLevel;
    const own = await call(harness.app, {
      method: 'PATCH',
      url: `/api/admin/users/${admin.id}`,
      body: { vipLevel: before === 'vip' ? 'normal' : 'vip' },
      cookie: admin.cookie,
    });
    expect(own.statusCode).toBe(403);
    expect(own.json().error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'You cannot change your own VIP level: another admin must.',
      fields: { vipLevel: 'You cannot change your own VIP level: another admin must.' },
    });
    expect((await call(harness.app, { url: `/api/admin/users/${admin.id}`, cookie: admin.cookie })).json().vipLevel).toBe(before);
  });

  it('refuses a confirm that became stale: the user got the role another way meanwhile', async () => {
    const second = await signUpAdminWithVerifiedPin(harness, { fullName: 'Stale Checker' });
    const target = await signUpUser(harness.app, { fullName: 'Promoted Elsewhere' });
    const asked = await call(harness.app, { method: 'PATCH', url: `/api/admin/users/${target.id}`, body: { role: 'admin' }, cookie: admin.cookie });
    expect(asked.statusCode).toBe(202);
    // As `npm run admin -- promote` does on the server.
    await setRoleAndVipLevel(harness, target.id, { role: 'admin' });
    const stale = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/pending-changes/${asked.json().pendingChange.id}/confirm`,
      cookie: second.cookie,
      body: {},
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject({ code: 'STALE_CHANGE', message: "This user's role changed since this was asked for: discard this change." });
    await setRoleAndVipLevel(harness, target.id, { role: 'user' });
    await setRoleAndVipLevel(harness, second.id, { role: 'user' });
  });

  it('does not let an admin remove their own admin role, and changes nothing', async () => {
    const auditBefore = (await db().execute<{ count: number }>(sql`select count(*)::int as count from audit_log`)).rows[0]?.count;
    const response = await call(harness.app, {
      method: 'PATCH',
      url: `/api/admin/users/${admin.id}`,
      body: { role: 'user', vipLevel: 'vip' },
      cookie: admin.cookie,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({
      code: 'CONFLICT',
      message: 'You cannot remove your own admin role',
      fields: { role: 'You cannot remove your own admin role' },
    });
    const me = (await call(harness.app, { url: '/api/me', cookie: admin.cookie })).json();
    expect(me).toMatchObject({ role: 'admin', vipLevel: 'normal' });
    expect((await db().execute<{ count: number }>(sql`select count(*)::int as count from audit_log`)).rows[0]?.count).toBe(auditBefore);
  });

  it('stops an admin demoted a moment ago from changing roles', async () => {
    const second = await signUpAdminWithVerifiedPin(harness, { fullName: 'Second Admin' });
    // As `npm run admin -- demote` does on the server (in the web app, the removal would wait for a second admin).
    await setRoleAndVipLevel(harness, second.id, { role: 'user' });
    const response = await call(harness.app, { method: 'PATCH', url: `/api/admin/users/${admin.id}`, body: { role: 'user' }, cookie: second.cookie });
    expect(response.statusCode).toBe(403);
    expect((await call(harness.app, { url: '/api/me', cookie: admin.cookie })).json().role).toBe('admin');
  });

  it('refuses unknown values, empty changes and extra fields', async () => {
    for (const body of [{ vipLevel: 'gold' }, { role: 'superuser' }, {}, { vipLevel: 'vip', balance: '1000' }]) {
      const response = await call(harness.app, { method: 'PATCH', url: `/api/admin/users/${customer.id}`, body, cookie: admin.cookie });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    }
    expect((await call(harness.app, { url: `/api/admin/users/${customer.id}`, cookie: admin.cookie })).json().vipLevel).toBe('normal');
  });

  it('refuses VIP-level customers and customers', async () => {
    for (const user of [vip, customer]) {
      const response = await call(harness.app, { method: 'PATCH', url: `/api/admin/users/${user.id}`, body: { role: 'admin' }, cookie: user.cookie });
      expect(response.statusCode).toBe(403);
      expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).json().role).toBe('user');
    }
  });
});

describe('ending sessions', () => {
  it('ends every session of the user and audits it', async () => {
    const target = await signUpUser(harness.app, { fullName: 'Lost Phone' });
    const login = await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: target.email, password: target.password } });
    const secondCookie = sessionCookieOf(login);
    const response = await call(harness.app, { method: 'POST', url: `/api/admin/users/${target.id}/sessions/revoke`, cookie: admin.cookie });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'All sessions of this user were ended', sessionsEnded: 2 });
    for (const cookie of [target.cookie, secondCookie]) expect((await call(harness.app, { url: '/api/me', cookie })).statusCode).toBe(401);
    expect((await call(harness.app, { url: '/api/me', cookie: admin.cookie })).statusCode).toBe(200);
    const audit = (await call(harness.app, { url: `/api/admin/audit-log?targetUserId=${target.id}`, cookie: admin.cookie })).json().items[0];
    expect(audit).toMatchObject({ action: 'user.sessions_revoke', actor: { id: admin.id }, before: { sessions: 2 }, after: { sessions: 0 } });
  });

  it('refuses VIP-level customers', async () => {
    const response = await call(harness.app, { method: 'POST', url: `/api/admin/users/${customer.id}/sessions/revoke`, cookie: vip.cookie });
    expect(response.statusCode).toBe(403);
    expect((await call(harness.app, { url: '/api/me', cookie: customer.cookie })).statusCode).toBe(200);
  });
});

describe('audit log listing', () => {
  it('lists newest first in pages, filtered by action and target user', async () => {
    const target = await signUpUser(harness.app, { fullName: 'Audit Subject' });
    for (const vipLevel of ['vip', 'vip1', 'vip2', 'vip3', 'normal']) {
      await call(harness.app, { method: 'PATCH', url: `/api/admin/users/${target.id}`, body: { vipLevel }, cookie: admin.cookie });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/api/admin/audit-log?targetUserId=${target.id}&action=user.update&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (await call(harness.app, { url, cookie: admin.cookie })).json();
      seen.push(...page.items.map((item: { after: { vipLevel: string } }) => item.after.vipLevel));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['normal', 'vip3', 'vip2', 'vip1', 'vip']);

    const otherAction = (
      await call(harness.app, { url: `/api/admin/audit-log?targetUserId=${target.id}&action=settings.update`, cookie: admin.cookie })
    ).json();
    expect(otherAction).toEqual({ items: [], nextCursor: null });
    const everything = (await call(harness.app, { url: '/api/admin/audit-log?limit=100', cookie: admin.cookie })).json().items;
    const ids = everything.map((item: { id: string }) => BigInt(item.id));
    expect([...ids].sort((a, b) => (a > b ? -1 : 1))).toEqual(ids);
  });

  it('refuses malformed filters and non-admins', async () => {
    for (const url of [
      '/api/admin/audit-log?action=DROP%20TABLE',
      '/api/admin/audit-log?targetUserId=x',
      '/api/admin/audit-log?cursor=abc',
      '/api/admin/audit-log?limit=1000',
    ]) {
      expect((await call(harness.app, { url, cookie: admin.cookie })).statusCode).toBe(400);
    }
    expect((await call(harness.app, { url: '/api/admin/audit-log', cookie: vip.cookie })).statusCode).toBe(403);
  });
});
