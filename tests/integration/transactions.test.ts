import { describe, expect, it } from 'vitest';
import { listTransactions } from '../../src/server/features/transactions/service.ts';
import { call, signUpUser, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { addBankAccount, decide, expectStatus, fundWallet, requestTransfer, requestWithdrawal, setVipLevel, submitDeposit } from '../fixtures/wallet.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

const { harness, admin } = useIntegrationFile();

interface Item {
  id: string;
  type: string;
  direction: string;
  amount: string;
  currency: string;
  amountUsdt: string;
  status: string;
  createdAt: string;
  counterpartyEmail: string | null;
  referralLevel: number | null;
  transactionHash: string | null;
  network: string | null;
  rejectionReason: string | null;
}

async function history(user: SignedUpUser, query = ''): Promise<{ items: Item[]; nextCursor: string | null }> {
  const response = await call(harness.app, { url: `/api/transactions${query}`, cookie: user.cookie });
  expectStatus(response, 200);
  return response.json();
}

/** A customer with one of everything: deposits (approved and pending), a withdrawal, transfers both ways and a referral bonus. */
async function customerWithHistory() {
  const user = await signUpVerifiedUser(harness.app);
  const friend = await signUpVerifiedUser(harness.app);
  const referred = await signUpVerifiedUser(harness.app, { referralCode: user.referralCode });
  await fundWallet(harness, admin, user, '100');
  await fundWallet(harness, admin, friend, '50');
  const bankAccountId = await addBankAccount(harness, user);
  expectStatus(await requestWithdrawal(harness, user, { amount: '20', bankAccountId }), 201);
  expectStatus(await requestTransfer(harness, user, { recipientEmail: friend.email, amount: '5' }), 201);
  const incoming = await requestTransfer(harness, friend, { recipientEmail: user.email, amount: '7' });
  expectStatus(await decide(harness, admin, 'transfers', incoming.json().transfer.id, 'approve'), 200);
  await fundWallet(harness, admin, referred, '1000');
  await submitDeposit(harness, user, '15', 'ERC20');
  return { user, friend };
}

describe('transaction history', () => {
  it('lists deposits, withdrawals, transfers both ways and referral bonuses, newest first', async () => {
    const { user, friend } = await customerWithHistory();
    const { items, nextCursor } = await history(user);
    expect(nextCursor).toBeNull();
    expect(items.map((item) => [item.type, item.direction, item.amount, item.currency, item.status])).toEqual([
      ['deposit', 'in', '15.000000', 'USDT', 'pending'],
      ['referral_bonus', 'in', '1.000000', 'USDT', 'approved'],
      ['transfer', 'in', '7.000000', 'USDT', 'approved'],
      ['transfer', 'out', '5.000000', 'USDT', 'pending'],
      ['withdrawal', 'out', '1660.00', 'INR', 'pending'],
      ['deposit', 'in', '100.000000', 'USDT', 'approved'],
    ]);
    expect(items[0]).toMatchObject({ network: 'ERC20', transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(items[1]?.referralLevel).toBe(1);
    expect(items[2]?.counterpartyEmail).toBe(friend.email);
    expect(items[4]).toMatchObject({ amountUsdt: '20.000000' });
    const times = items.map((item) => Date.parse(item.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('shows each part of the history from the request after its first entry, the referral bonuses alone too', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const friend = await signUpVerifiedUser(harness.app);
    const types = async (query = '') => (await history(user, query)).items.map((item) => `${item.type} ${item.direction}`);
    expect(await types()).toEqual([]);
    // Only a referral bonus: the one part whose branch takes no status, with a status asked for.
    const referred = await signUpVerifiedUser(harness.app, { referralCode: user.referralCode });
    await fundWallet(harness, admin, referred, '1000');
    expect(await types()).toEqual(['referral_bonus in']);
    expect(await types('?status=approved')).toEqual(['referral_bonus in']);
    expect(await types('?status=pending')).toEqual([]);
    expect(await types('?type=deposit')).toEqual([]);
    await fundWallet(harness, admin, user, '100');
    expect(await types()).toEqual(['deposit in', 'referral_bonus in']);
    const bankAccountId = await addBankAccount(harness, user);
    expectStatus(await requestWithdrawal(harness, user, { amount: '20', bankAccountId }), 201);
    expect(await types()).toEqual(['withdrawal out', 'deposit in', 'referral_bonus in']);
    expectStatus(await requestTransfer(harness, user, { recipientEmail: friend.email, amount: '5' }), 201);
    expect(await types('?status=pending')).toEqual(['transfer out', 'withdrawal out']);
    await fundWallet(harness, admin, friend, '50');
    const incoming = await requestTransfer(harness, friend, { recipientEmail: user.email, amount: '7' });
    expect(await types('?type=transfer')).toEqual(['transfer in', 'transfer out']);
    expectStatus(await decide(harness, admin, 'transfers', incoming.json().transfer.id, 'approve'), 200);
    expect(await types()).toEqual(['transfer in', 'transfer out', 'withdrawal out', 'deposit in', 'referral_bonus in']);
    expect(await types('?status=approved')).toEqual(['transfer in', 'deposit in', 'referral_bonus in']);
  });

  it('filters by type', async () => {
    const { user } = await customerWithHistory();
    expect((await history(user, '?type=deposit')).items.map((item) => item.type)).toEqual(['deposit', 'deposit']);
    expect((await history(user, '?type=withdrawal')).items.map((item) => item.type)).toEqual(['withdrawal']);
    expect((await history(user, '?type=transfer')).items.map((item) => item.direction)).toEqual(['in', 'out']);
    expect((await history(user, '?type=referral_bonus')).items).toHaveLength(1);
    const bad = await call(harness.app, { url: '/api/transactions?type=refund', cookie: user.cookie });
    expect(bad.statusCode).toBe(400);
  });

  it('filters by status, alone and with a type; referral bonuses are always approved', async () => {
    const { user } = await customerWithHistory();
    expect((await history(user, '?status=pending')).items.map((item) => [item.type, item.direction])).toEqual([
      ['deposit', 'in'],
      ['transfer', 'out'],
      ['withdrawal', 'out'],
    ]);
    expect((await history(user, '?status=approved')).items.map((item) => item.type)).toEqual(['referral_bonus', 'transfer', 'deposit']);
    expect((await history(user, '?status=rejected')).items).toEqual([]);
    expect((await history(user, '?type=deposit&status=approved')).items.map((item) => item.amount)).toEqual(['100.000000']);
    expect((await history(user, '?type=referral_bonus&status=approved')).items).toHaveLength(1);
    expect((await history(user, '?type=referral_bonus&status=pending')).items).toEqual([]);
    const bad = await call(harness.app, { url: '/api/transactions?status=paid', cookie: user.cookie });
    expect(bad.statusCode).toBe(400);
  });

  it('pages with a keyset cursor without skipping or repeating rows', async () => {
    const { user } = await customerWithHistory();
    for (let index = 0; index < 7; index += 1) await submitDeposit(harness, user, `${10 + index}`);
    const all = (await history(user, '?limit=100')).items.map((item) => item.id);
    expect(all).toHaveLength(13);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: Item[]; nextCursor: string | null } = await history(user, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(3);
      paged.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all);
  });

  it('caps the page size at 100 and refuses a forged cursor', async () => {
    const user = await signUpVerifiedUser(harness.app);
    expect((await call(harness.app, { url: '/api/transactions?limit=101', cookie: user.cookie })).statusCode).toBe(400);
    expect((await call(harness.app, { url: '/api/transactions?limit=0', cookie: user.cookie })).statusCode).toBe(400);
    const forged = Buffer.from('2025-13-45T00:00:00.000000Z|00000000-0000-4000-8000-000000000000').toString('base64url');
    const response = await call(harness.app, { url: `/api/transactions?cursor=${forged}`, cookie: user.cookie });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('This page link is no longer valid. Please reload the list.');
    expect((await call(harness.app, { url: `/api/transactions?cursor=${'a'.repeat(201)}`, cookie: user.cookie })).statusCode).toBe(400);
  });

  it("never shows another customer's rows, and needs a PIN-verified session", async () => {
    await customerWithHistory();
    const stranger = await signUpVerifiedUser(harness.app);
    expect((await history(stranger)).items).toEqual([]);
    const unverified = await signUpUser(harness.app);
    expect((await call(harness.app, { url: '/api/transactions', cookie: unverified.cookie })).statusCode).toBe(403);
    expect((await call(harness.app, { url: '/api/transactions' })).statusCode).toBe(401);
  });

  it("carries the admin's rejection reason on rejected rows only, and only the viewer's own", async () => {
    const { user, friend } = await customerWithHistory();
    const bankAccountId = await addBankAccount(harness, user);
    const rejectedDeposit = await submitDeposit(harness, user, '12');
    expectStatus(await decide(harness, admin, 'deposits', rejectedDeposit, 'reject', { reason: 'No such transaction on chain' }), 200);
    const withdrawal = await requestWithdrawal(harness, user, { amount: '10', bankAccountId });
    expectStatus(withdrawal, 201);
    const rejectedWithdrawal: string = withdrawal.json().withdrawal.id;
    expectStatus(await decide(harness, admin, 'withdrawals', rejectedWithdrawal, 'reject', { reason: 'Account name does not match' }), 200);
    const silent = await requestWithdrawal(harness, user, { amount: '2', bankAccountId });
    expectStatus(silent, 201);
    const silentlyRejected: string = silent.json().withdrawal.id;
    expectStatus(await decide(harness, admin, 'withdrawals', silentlyRejected, 'reject'), 200);
    const transfer = await requestTransfer(harness, user, { recipientEmail: friend.email, amount: '3' });
    expectStatus(transfer, 201);
    const rejectedTransfer: string = transfer.json().transfer.id;
    expectStatus(await decide(harness, admin, 'transfers', rejectedTransfer, 'reject', { reason: 'Unusual transfer pattern' }), 200);

    // Someone else's rejection, with a reason that must never reach this customer.
    const stranger = await signUpVerifiedUser(harness.app);
    const strangerDeposit = await submitDeposit(harness, stranger, '11');
    expectStatus(await decide(harness, admin, 'deposits', strangerDeposit, 'reject', { reason: 'STRANGER-ONLY reason' }), 200);

    const { items } = await history(user);
    expect(items.map((item) => [item.type, item.direction, item.status, item.rejectionReason])).toEqual([
      ['transfer', 'out', 'rejected', 'Unusual transfer pattern'],
      ['withdrawal', 'out', 'rejected', null],
      ['withdrawal', 'out', 'rejected', 'Account name does not match'],
      ['deposit', 'in', 'rejected', 'No such transaction on chain'],
      ['deposit', 'in', 'pending', null],
      ['referral_bonus', 'in', 'approved', null],
      ['transfer', 'in', 'approved', null],
      ['transfer', 'out', 'pending', null],
      ['withdrawal', 'out', 'pending', null],
      ['deposit', 'in', 'approved', null],
    ]);
    expect(items.slice(0, 4).map((item) => item.id)).toEqual([rejectedTransfer, silentlyRejected, rejectedWithdrawal, rejectedDeposit]);
    expect(JSON.stringify(items)).not.toContain('STRANGER-ONLY');

    // The type filter keeps the reason.
    expect((await history(user, '?type=deposit')).items.map((item) => item.rejectionReason)).toEqual(['No such transaction on chain', null, null]);

    // The stranger sees their own reason and nothing of this customer's.
    const strangerItems = (await history(stranger)).items;
    expect(strangerItems.map((item) => [item.id, item.rejectionReason])).toEqual([[strangerDeposit, 'STRANGER-ONLY reason']]);

    // The recipient of the rejected transfer sees it with the reason, as GET /api/transfers/:id shows it to them.
    const received = (await history(friend, '?type=transfer')).items.find((item) => item.id === rejectedTransfer && item.direction === 'in');
    expect(received).toMatchObject({ status: 'rejected', rejectionReason: 'Unusual transfer pattern' });

    // The admin's user page reads the same history.
    const adminView = await listTransactions(harness.database.handle.db, { userId: user.id, limit: 100 });
    expect(adminView.items.find((item) => item.id === rejectedWithdrawal)?.rejectionReason).toBe('Account name does not match');
  });

  it('exports listTransactions for the admin user page', async () => {
    const { user } = await customerWithHistory();
    const page = await listTransactions(harness.database.handle.db, { userId: user.id, limit: 2 });
    expect(page.items).toHaveLength(2);
    const next = await listTransactions(harness.database.handle.db, { userId: user.id, limit: 100, cursor: page.nextCursor ?? undefined });
    expect(next.items).toHaveLength(4);
  });
});

describe('wallet summary', () => {
  it('gives the balance, the real pending sums and the stored rates', async () => {
    const { user } = await customerWithHistory();
    const response = await call(harness.app, { url: '/api/wallet/summary', cookie: user.cookie });
    expect(response.statusCode).toBe(200);
    // 100 deposited + 1 referral bonus + 7 received - 20 withdrawing - 5 transferring = 83
    expect(response.json()).toEqual({
      balanceUsdt: '83.000000',
      balanceInrEstimate: '6889.00',
      pendingDepositsUsdt: '15.000000',
      pendingWithdrawalsUsdt: '20.000000',
      pendingWithdrawalsInr: '1660.00',
      pendingTransfersOutUsdt: '5.000000',
      rates: { normalInr: '83.00', vipInr: '83.25' },
      rateTier: 'normal',
      vipThresholdInr: '100000.00',
      minDepositUsdt: '10.000000',
      minWithdrawalUsdt: '1.000000',
      depositAddresses: { TRC20: expect.any(String), ERC20: expect.any(String) },
    });
    await setVipLevel(harness, user, 'vip');
    expect((await call(harness.app, { url: '/api/wallet/summary', cookie: user.cookie })).json().rateTier).toBe('vip');
  });

  it('needs a PIN-verified session', async () => {
    const user = await signUpUser(harness.app);
    expect((await call(harness.app, { url: '/api/wallet/summary', cookie: user.cookie })).statusCode).toBe(403);
  });
});
