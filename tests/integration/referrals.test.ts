import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { referralRewardDetailResponseSchema, referralSummarySchema, type ReferralSummary } from '#shared/contracts/referrals';
import { call, signUpUser, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { expectLedgerConsistent, expectStatus, fundWallet } from '../fixtures/wallet.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

/*
 * A referred B, B referred C. Deposits approved through the admin API pay
 * 0.1 % to the referrer and 0.02 % to the referrer's referrer.
 */
const { harness, admin } = useIntegrationFile();
let alpha: SignedUpUser;
let beta: SignedUpUser;
let gamma: SignedUpUser;
let outsider: SignedUpUser;

async function summaryOf(user: SignedUpUser, query = ''): Promise<ReferralSummary> {
  const response = await call(harness.app, { url: `/api/referrals${query}`, cookie: user.cookie });
  expectStatus(response, 200);
  return referralSummarySchema.parse(response.json());
}

beforeAll(async () => {
  alpha = await signUpVerifiedUser(harness.app, { fullName: 'Alpha Referrer' });
  beta = await signUpVerifiedUser(harness.app, { fullName: 'Beta Referred', referralCode: alpha.referralCode });
  gamma = await signUpVerifiedUser(harness.app, { fullName: 'Gamma Second', referralCode: beta.referralCode });
  outsider = await signUpVerifiedUser(harness.app, { fullName: 'Outsider Person' });
  await fundWallet(harness, admin, beta, '1000');
  await fundWallet(harness, admin, gamma, '500');
  await fundWallet(harness, admin, outsider, '700');
});

describe('GET /api/referrals', () => {
  it('needs a session whose PIN was verified', async () => {
    expect((await call(harness.app, { url: '/api/referrals' })).statusCode).toBe(401);
    const unverified = await signUpUser(harness.app);
    const response = await call(harness.app, { url: '/api/referrals', cookie: unverified.cookie });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('PIN_REQUIRED');
  });

  it('gives the referrer both levels: B at level 1, C at level 2, with their rewards', async () => {
    const summary = await summaryOf(alpha);
    expect(summary.totalReferrals).toBe(2);
    expect(summary.referralsByLevel).toEqual({ level1: 1, level2: 1 });
    expect(summary.referrals.items.map(({ name, level }) => ({ name, level }))).toEqual([
      { name: 'Gamma Second', level: 2 },
      { name: 'Beta Referred', level: 1 },
    ]);
    // 0.1 % of 1000 = 1 USDT (level 1); 0.02 % of 500 = 0.1 USDT (level 2).
    expect(summary.totalEarnings).toBe('1.100000');
    expect(summary.earnings.items.map(({ amount, level }) => ({ amount, level }))).toEqual([
      { amount: '0.100000', level: 2 },
      { amount: '1.000000', level: 1 },
    ]);
    expect(summary.referrals.nextCursor).toBeNull();
    expect(summary.earnings.nextCursor).toBeNull();
    for (const item of [...summary.referrals.items, ...summary.earnings.items]) {
      expect(item).not.toHaveProperty('email');
    }
  });

  it('gives the middle of the chain only C at level 1 and 0.1 % of C’s deposit', async () => {
    const summary = await summaryOf(beta);
    expect(summary.totalReferrals).toBe(1);
    expect(summary.referrals.items).toMatchObject([{ name: 'Gamma Second', level: 1 }]);
    expect(summary.totalEarnings).toBe('0.500000');
    expect(summary.earnings.items).toMatchObject([{ amount: '0.500000', level: 1 }]);
  });

  it('gives the end of the chain and an outsider empty summaries', async () => {
    for (const user of [gamma, outsider]) {
      const summary = await summaryOf(user);
      expect(summary).toEqual({
        totalReferrals: 0,
        referralsByLevel: { level1: 0, level2: 0 },
        totalEarnings: '0.000000',
        referrals: { items: [], nextCursor: null },
        earnings: { items: [], nextCursor: null },
      });
    }
  });

  it('agrees with the ledger: the referrer’s balance is exactly the rewards', async () => {
    const me = await call(harness.app, { url: '/api/me', cookie: alpha.cookie });
    expect(me.json().balanceUsdt).toBe('1.100000');
    await expectLedgerConsistent(harness);
  });

  it('pages both lists newest first with keyset cursors, without repeats or gaps', async () => {
    const host = await signUpVerifiedUser(harness.app, { fullName: 'Host Person' });
    const invited: SignedUpUser[] = [];
    for (let index = 0; index < 5; index += 1) {
      invited.push(await signUpVerifiedUser(harness.app, { fullName: `Invitee ${index}`, referralCode: host.referralCode }));
    }
    // Same created_at for two rows: the id breaks the tie, so neither is lost between pages.
    const [firstInvitee, secondInvitee] = invited;
    if (!firstInvitee || !secondInvitee) throw new Error('invitees missing');
    await harness.database.handle.db.execute(
      sql`update profiles set created_at = (select created_at from profiles where user_id = ${firstInvitee.id}) where user_id = ${secondInvitee.id}`,
    );
    for (const user of invited) await fundWallet(harness, admin, user, '100');

    const summary = await summaryOf(host, '?limit=2');
    expect(summary.totalReferrals).toBe(5);
    expect(summary.referrals.items).toHaveLength(2);
    expect(summary.earnings.items).toHaveLength(2);

    const people = [...summary.referrals.items];
    let cursor = summary.referrals.nextCursor;
    for (let pages = 0; cursor && pages < 10; pages += 1) {
      const response = await call(harness.app, { url: `/api/referrals/people?limit=2&cursor=${cursor}`, cookie: host.cookie });
      expectStatus(response, 200);
      people.push(...response.json().items);
      cursor = response.json().nextCursor;
    }
    expect(people.map((person) => person.name).sort()).toEqual(invited.map((_, index) => `Invitee ${index}`).sort());
    expect(new Set(people.map((person) => person.id)).size).toBe(5);
    const joined = people.map((person) => person.joinedAt);
    expect([...joined].sort().reverse()).toEqual(joined);

    const earnings = [...summary.earnings.items];
    cursor = summary.earnings.nextCursor;
    for (let pages = 0; cursor && pages < 10; pages += 1) {
      const response = await call(harness.app, { url: `/api/referrals/earnings?limit=2&cursor=${cursor}`, cookie: host.cookie });
      expectStatus(response, 200);
      earnings.push(...response.json().items);
      cursor = response.json().nextCursor;
    }
    expect(earnings).toHaveLength(5);
    expect(earnings.every((earning) => earning.amount === '0.100000' && earning.level === 1)).toBe(true);
  });

  it('refuses a malformed cursor and an oversized page with 400', async () => {
    const badCursor = await call(harness.app, { url: '/api/referrals/people?cursor=not-a-cursor', cookie: alpha.cookie });
    expect(badCursor.statusCode).toBe(400);
    const tooMany = await call(harness.app, { url: '/api/referrals?limit=1000', cookie: alpha.cookie });
    expect(tooMany.statusCode).toBe(400);
  });
});

describe('GET /api/referrals/earnings/:id', () => {
  it('shows the owner one reward with the deposit that earned it, and hides it from everyone else', async () => {
    const summary = await summaryOf(alpha);
    const levelOne = summary.earnings.items.find((item) => item.level === 1);
    expect(levelOne).toBeDefined();
    const response = await call(harness.app, { url: `/api/referrals/earnings/${levelOne!.id}`, cookie: alpha.cookie });
    expectStatus(response, 200);
    expect(referralRewardDetailResponseSchema.parse(response.json()).reward).toMatchObject({
      id: levelOne!.id,
      amount: '1.000000',
      level: 1,
      referredName: 'Beta Referred',
      depositAmount: '1000.000000',
    });

    for (const stranger of [beta, outsider]) {
      const hidden = await call(harness.app, { url: `/api/referrals/earnings/${levelOne!.id}`, cookie: stranger.cookie });
      expectStatus(hidden, 404);
      expect(hidden.json().error.message).toBe('Referral bonus not found');
    }
    expect((await call(harness.app, { url: `/api/referrals/earnings/${levelOne!.id}` })).statusCode).toBe(401);
    expectStatus(await call(harness.app, { url: '/api/referrals/earnings/not-a-uuid', cookie: alpha.cookie }), 400);
  });
});
