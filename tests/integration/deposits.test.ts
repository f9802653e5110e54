import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, signUpUser, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { TEST_TRC20_ADDRESS } from '../fixtures/addresses.ts';
import {
  balanceMicros,
  configureDepositAddresses,
  decide,
  fundWallet,
  ledgerTransferCount,
  randomErc20Hash,
  randomTrc20Hash,
  submitDeposit,
} from '../fixtures/wallet.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';

const { harness, admin } = useIntegrationFile();

function postDeposit(user: SignedUpUser, body: unknown, headers: Record<string, string> = {}) {
  return call(harness.app, { method: 'POST', url: '/api/deposits', cookie: user.cookie, body, headers });
}

describe('deposit submission', () => {
  it('records a pending deposit with the admin address and a lower-case hash, and moves no money', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const hash = randomTrc20Hash().toUpperCase();
    const transfersBefore = await ledgerTransferCount(harness);
    const response = await postDeposit(user, { network: 'TRC20', amount: '25.5', transactionHash: `  ${hash} ` });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.message).toBe('Deposit request submitted successfully');
    expect(body.deposit).toMatchObject({
      network: 'TRC20',
      amount: '25.500000',
      transactionHash: hash.toLowerCase(),
      depositAddress: TEST_TRC20_ADDRESS,
      status: 'pending',
      estimatedInr: '2116.50',
      rateInr: '83.00',
      decidedAt: null,
    });
    expect(await balanceMicros(harness, user.id)).toBe(0n);
    expect(await ledgerTransferCount(harness)).toBe(transfersBefore);

    const own = await call(harness.app, { url: `/api/deposits/${body.deposit.id}`, cookie: user.cookie });
    expect(own.statusCode).toBe(200);
    expect(own.json().deposit.id).toBe(body.deposit.id);
  });

  it('accepts an ERC20 hash (0x and 64 hex) and up to 6 decimals', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const response = await postDeposit(user, { network: 'ERC20', amount: '10.123456', transactionHash: randomErc20Hash() });
    expect(response.statusCode).toBe(201);
    expect(response.json().deposit.amount).toBe('10.123456');
  });

  it.each([
    [{ network: 'TRC20', amount: '', transactionHash: 'x' }, 'amount', 'Please enter a valid amount'],
    [{ network: 'TRC20', amount: '0', transactionHash: randomTrc20Hash() }, 'amount', 'Please enter a valid amount'],
    [{ network: 'TRC20', amount: '-5', transactionHash: randomTrc20Hash() }, 'amount', 'Please enter a valid amount'],
    [{ network: 'TRC20', amount: 'abc', transactionHash: randomTrc20Hash() }, 'amount', 'Please enter a valid amount'],
    [{ network: 'TRC20', amount: '1e3', transactionHash: randomTrc20Hash() }, 'amount', 'Please enter a valid amount'],
    [{ network: 'TRC20', amount: 15, transactionHash: randomTrc20Hash() }, 'amount', 'Please enter a valid amount'],
    [{ network: 'TRC20', amount: '10.1234567', transactionHash: randomTrc20Hash() }, 'amount', 'Amount can have at most 6 decimal places.'],
    [{ network: 'TRC20', amount: '99999999999', transactionHash: randomTrc20Hash() }, 'amount', 'Amount is too large.'],
    [{ network: 'TRC20', amount: '20', transactionHash: '' }, 'transactionHash', 'Please enter your transaction hash'],
    [{ network: 'TRC20', amount: '20' }, 'transactionHash', 'Please enter your transaction hash'],
    [
      { network: 'TRC20', amount: '20', transactionHash: randomErc20Hash() },
      'transactionHash',
      'A TRC20 transaction hash is 64 hexadecimal characters (0-9, a-f).',
    ],
    [
      { network: 'ERC20', amount: '20', transactionHash: randomTrc20Hash() },
      'transactionHash',
      'An ERC20 transaction hash is 0x followed by 64 hexadecimal characters (0-9, a-f).',
    ],
    [
      { network: 'TRC20', amount: '20', transactionHash: 'z'.repeat(64) },
      'transactionHash',
      'A TRC20 transaction hash is 64 hexadecimal characters (0-9, a-f).',
    ],
    [{ network: 'TRC20', amount: '20', transactionHash: 'a'.repeat(101) }, 'transactionHash', 'This transaction hash is too long.'],
    [{ network: 'BEP20', amount: '20', transactionHash: randomTrc20Hash() }, 'network', 'Please select a network'],
  ])('refuses %j with a clear message', async (body, field, message) => {
    const user = await signUpVerifiedUser(harness.app);
    const response = await postDeposit(user, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED', message, fields: { [field]: message } });
    const count = await harness.database.handle.db.execute<{ count: bigint }>(sql`select count(*) as count from usdt_deposits where user_id = ${user.id}`);
    expect(count.rows[0]?.count).toBe(0n);
  });

  it('enforces the configured minimum with the spec message', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const below = await postDeposit(user, { network: 'TRC20', amount: '9.999999', transactionHash: randomTrc20Hash() });
    expect(below.statusCode).toBe(400);
    expect(below.json().error).toMatchObject({ message: 'Minimum deposit is 10 USDT', fields: { amount: 'Minimum deposit is 10 USDT' } });

    await harness.database.handle.db.execute(sql`update admin_settings set min_deposit_usdt_micros = 12500000 where id = 1`);
    try {
      const belowNew = await postDeposit(user, { network: 'TRC20', amount: '12', transactionHash: randomTrc20Hash() });
      expect(belowNew.json().error.message).toBe('Minimum deposit is 12.5 USDT');
      expect((await postDeposit(user, { network: 'TRC20', amount: '12.5', transactionHash: randomTrc20Hash() })).statusCode).toBe(201);
    } finally {
      await harness.database.handle.db.execute(sql`update admin_settings set min_deposit_usdt_micros = 10000000 where id = 1`);
    }
  });

  it('refuses the same hash on the same network twice, whatever its letter case and whoever sends it', async () => {
    const first = await signUpVerifiedUser(harness.app);
    const second = await signUpVerifiedUser(harness.app);
    const hash = randomTrc20Hash();
    expect((await postDeposit(first, { network: 'TRC20', amount: '20', transactionHash: hash })).statusCode).toBe(201);
    const again = await postDeposit(second, { network: 'TRC20', amount: '20', transactionHash: hash.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({
      code: 'CONFLICT',
      message: 'This transaction hash has already been submitted for this network.',
      fields: { transactionHash: 'This transaction hash has already been submitted for this network.' },
    });
  });

  it('refuses a network without an admin address', async () => {
    const user = await signUpVerifiedUser(harness.app);
    await harness.database.handle.db.execute(sql`update admin_settings set erc20_address = '' where id = 1`);
    try {
      const response = await postDeposit(user, { network: 'ERC20', amount: '20', transactionHash: randomErc20Hash() });
      expect(response.statusCode).toBe(409);
      expect(response.json().error.message).toBe('Deposits on this network are not available right now. Please contact support.');
    } finally {
      await configureDepositAddresses(harness);
    }
  });

  it('caps the deposits one customer may have waiting at 20', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const ids = await Promise.all(Array.from({ length: 20 }, () => submitDeposit(harness, user, '10')));
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => postDeposit(user, { network: 'TRC20', amount: '10', transactionHash: randomTrc20Hash() })),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([409, 409, 409]);
    const refused = answers[0]!;
    expect(refused.json().error.message).toBe('You have 20 deposits waiting for approval. Please wait until they are reviewed before submitting more.');
    await decide(harness, admin, 'deposits', ids[0] as string, 'reject');
    expect((await postDeposit(user, { network: 'TRC20', amount: '10', transactionHash: randomTrc20Hash() })).statusCode).toBe(201);
  });

  it('needs a signed-in, PIN-verified session', async () => {
    const body = { network: 'TRC20', amount: '20', transactionHash: randomTrc20Hash() };
    expect((await call(harness.app, { method: 'POST', url: '/api/deposits', body })).statusCode).toBe(401);
    const unverified = await signUpUser(harness.app);
    const response = await postDeposit(unverified, body);
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('PIN_REQUIRED');
  });

  it('replays the first answer for a retried Idempotency-Key', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const body = { network: 'TRC20', amount: '20', transactionHash: randomTrc20Hash() };
    const first = await postDeposit(user, body, { 'idempotency-key': 'deposit-retry-1' });
    const retry = await postDeposit(user, body, { 'idempotency-key': 'deposit-retry-1' });
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
  });

  it("answers 404 for another customer's deposit", async () => {
    const owner = await signUpVerifiedUser(harness.app);
    const stranger = await signUpVerifiedUser(harness.app);
    const depositId = await submitDeposit(harness, owner, '20');
    const response = await call(harness.app, { url: `/api/deposits/${depositId}`, cookie: stranger.cookie });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe('Deposit not found');
  });
});

describe('deposit approval', () => {
  it('credits the wallet once, from deposits received, with an audit entry', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const depositId = await submitDeposit(harness, user, '100.25');
    const response = await decide(harness, admin, 'deposits', depositId, 'approve');
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Deposit approved successfully');
    expect(response.json().deposit).toMatchObject({ status: 'approved', user: { id: user.id, email: user.email } });
    expect(await balanceMicros(harness, user.id)).toBe(100_250_000n);
    const me = await call(harness.app, { url: '/api/me', cookie: user.cookie });
    expect(me.json().balanceUsdt).toBe('100.250000');

    const audit = await harness.database.handle.db.execute<{ action: string; actor_user_id: string }>(
      sql`select action, actor_user_id from audit_log where target_id = ${depositId}`,
    );
    expect(audit.rows).toEqual([{ action: 'deposit.approve', actor_user_id: admin.id }]);

    const again = await decide(harness, admin, 'deposits', depositId, 'approve');
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'ALREADY_DECIDED', message: 'This deposit has already been approved.' });
    const reject = await decide(harness, admin, 'deposits', depositId, 'reject');
    expect(reject.statusCode).toBe(409);
    expect(await balanceMicros(harness, user.id)).toBe(100_250_000n);
  });

  it('credits once when the same deposit is approved many times at once', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const depositId = await submitDeposit(harness, user, '50');
    const answers = await Promise.all(Array.from({ length: 10 }, () => decide(harness, admin, 'deposits', depositId, 'approve')));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, ...Array<number>(9).fill(409)]);
    expect(await balanceMicros(harness, user.id)).toBe(50_000_000n);
  });

  it('lets exactly one of a racing approve and reject win', async () => {
    for (let round = 0; round < 5; round += 1) {
      const user = await signUpVerifiedUser(harness.app);
      const depositId = await submitDeposit(harness, user, '30');
      const [approve, reject] = await Promise.all([
        decide(harness, admin, 'deposits', depositId, 'approve'),
        decide(harness, admin, 'deposits', depositId, 'reject', { reason: 'race' }),
      ]);
      expect([approve.statusCode, reject.statusCode].sort()).toEqual([200, 409]);
      expect(await balanceMicros(harness, user.id)).toBe(approve.statusCode === 200 ? 30_000_000n : 0n);
    }
  });

  it('pays 0.1 % to the referrer and 0.02 % to the referrer’s referrer, floored to the micro-USDT', async () => {
    const grandparent = await signUpVerifiedUser(harness.app);
    const parent = await signUpVerifiedUser(harness.app, { referralCode: grandparent.referralCode });
    const child = await signUpVerifiedUser(harness.app, { referralCode: parent.referralCode });
    await fundWallet(harness, admin, child, '1234.567891');
    // 0.1 % of 1234.567891 = 1.234567891 -> 1.234567; 0.02 % = 0.2469135782 -> 0.246913
    expect(await balanceMicros(harness, child.id)).toBe(1_234_567_891n);
    expect(await balanceMicros(harness, parent.id)).toBe(1_234_567n);
    expect(await balanceMicros(harness, grandparent.id)).toBe(246_913n);
    const rewards = await harness.database.handle.db.execute<{ referrer_user_id: string; level: number; reward_usdt_micros: bigint }>(
      sql`select referrer_user_id, level, reward_usdt_micros from referral_rewards where referred_user_id = ${child.id} order by level`,
    );
    expect(rewards.rows).toEqual([
      { referrer_user_id: parent.id, level: 1, reward_usdt_micros: 1_234_567n },
      { referrer_user_id: grandparent.id, level: 2, reward_usdt_micros: 246_913n },
    ]);

    // The parent's own deposit rewards only the grandparent (there is no third level).
    await fundWallet(harness, admin, parent, '1000');
    expect(await balanceMicros(harness, grandparent.id)).toBe(246_913n + 1_000_000n);
  });

  it('skips a reward that rounds down to zero', async () => {
    const parent = await signUpVerifiedUser(harness.app);
    const child = await signUpVerifiedUser(harness.app, { referralCode: parent.referralCode });
    await harness.database.handle.db.execute(sql`update admin_settings set min_deposit_usdt_micros = 1 where id = 1`);
    try {
      await fundWallet(harness, admin, child, '0.000999');
    } finally {
      await harness.database.handle.db.execute(sql`update admin_settings set min_deposit_usdt_micros = 10000000 where id = 1`);
    }
    expect(await balanceMicros(harness, parent.id)).toBe(0n);
    const rewards = await harness.database.handle.db.execute(sql`select 1 from referral_rewards where referred_user_id = ${child.id}`);
    expect(rewards.rows).toHaveLength(0);
  });

  it('rejects a pending deposit without moving money', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const depositId = await submitDeposit(harness, user, '40');
    const before = await ledgerTransferCount(harness);
    const response = await decide(harness, admin, 'deposits', depositId, 'reject', { reason: '  Not received on chain  ' });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Deposit rejected');
    expect(response.json().deposit).toMatchObject({ status: 'rejected', rejectionReason: 'Not received on chain' });
    expect(await ledgerTransferCount(harness)).toBe(before);
    expect((await decide(harness, admin, 'deposits', depositId, 'approve')).json().error.message).toBe('This deposit has already been rejected.');
  });

  it('refuses a reason over 500 characters, an unknown id and a malformed id', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const depositId = await submitDeposit(harness, user, '40');
    const long = await decide(harness, admin, 'deposits', depositId, 'reject', { reason: 'x'.repeat(501) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.message).toBe('The reason can have at most 500 characters.');
    const unknown = await decide(harness, admin, 'deposits', '00000000-0000-4000-8000-000000000000', 'approve');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('Deposit not found');
    expect((await decide(harness, admin, 'deposits', 'not-an-id', 'approve')).statusCode).toBe(400);
  });

  it('is for admins only', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const depositId = await submitDeposit(harness, user, '40');
    const byCustomer = await decide(harness, user, 'deposits', depositId, 'approve');
    expect(byCustomer.statusCode).toBe(403);
    expect((await call(harness.app, { url: '/api/admin/deposits', cookie: user.cookie })).statusCode).toBe(403);
    expect((await call(harness.app, { method: 'POST', url: `/api/admin/deposits/${depositId}/approve`, body: {} })).statusCode).toBe(401);
    expect(await balanceMicros(harness, user.id)).toBe(0n);
  });

  it('does not let an admin decide their own deposit', async () => {
    const depositId = await submitDeposit(harness, admin, '40');
    const response = await decide(harness, admin, 'deposits', depositId, 'approve');
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toBe('You cannot approve or reject your own deposit. Another admin must decide it.');
    expect((await decide(harness, admin, 'deposits', depositId, 'reject')).statusCode).toBe(403);
    expect(await balanceMicros(harness, admin.id)).toBe(0n);
    const otherAdmin = await signUpAdminWithVerifiedPin(harness);
    expect((await decide(harness, otherAdmin, 'deposits', depositId, 'approve')).statusCode).toBe(200);
  });

  it('lists deposits for admins newest first, by status, one page at a time', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) ids.push(await submitDeposit(harness, user, `${20 + index}`));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await call(harness.app, {
        url: `/api/admin/deposits?status=pending&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        cookie: admin.cookie,
      });
      expect(response.statusCode).toBe(200);
      const page = response.json<{ items: { id: string; status: string; user: { email: string } }[]; nextCursor: string | null }>();
      expect(page.items.length).toBeLessThanOrEqual(2);
      for (const item of page.items) expect(item.status).toBe('pending');
      seen.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
    } while (cursor);
    const mine = seen.filter((id) => ids.includes(id));
    expect(mine).toEqual([...ids].reverse());
    expect(new Set(seen).size).toBe(seen.length);

    expect((await call(harness.app, { url: '/api/admin/deposits?limit=101', cookie: admin.cookie })).statusCode).toBe(400);
    const badCursor = await call(harness.app, { url: '/api/admin/deposits?cursor=bm9wZQ', cookie: admin.cookie });
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().error.message).toBe('This page link is no longer valid. Please reload the list.');
  });
});
