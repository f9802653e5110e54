import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/server/errors.ts';
import { checkLedger, checkLedgerWithin, type LedgerCheckReport } from '../../src/server/platform/ledger/check.ts';
import { house, moveMoney, wallet } from '../../src/server/platform/ledger/ledger.ts';
import { signUpVerifiedUser } from '../fixtures/test-app.ts';
import { balanceMicros, fundWallet, ledgerTransferCount } from '../fixtures/wallet.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

const run = promisify(execFile);

const { harness, admin } = useIntegrationFile();

function db() {
  return harness.database.handle.db;
}

function failedChecks(report: LedgerCheckReport): string[] {
  return report.checks.filter((check) => !check.passed).map((check) => check.name);
}

class Rollback extends Error {}

/** Runs `work` in a transaction that is always rolled back, so a test can break the ledger without leaving it broken. */
async function inRolledBackTransaction(work: (transaction: Parameters<Parameters<ReturnType<typeof db>['transaction']>[0]>[0]) => Promise<void>) {
  await expect(
    db().transaction(async (transaction) => {
      await work(transaction);
      throw new Rollback();
    }),
  ).rejects.toBeInstanceOf(Rollback);
}

describe('ledger transfers', () => {
  it('moves money between wallets and writes one immutable row per movement', async () => {
    const alice = await signUpVerifiedUser(harness.app);
    const bob = await signUpVerifiedUser(harness.app);
    await fundWallet(harness, admin, alice, '10');
    const before = await ledgerTransferCount(harness);
    await db().transaction((transaction) =>
      moveMoney(transaction, [
        { from: wallet(alice.id), to: wallet(bob.id), amountUsdtMicros: 2_500_000n, reason: 'transfer_credit', referenceId: randomUUID() },
      ]),
    );
    expect(await balanceMicros(harness, alice.id)).toBe(7_500_000n);
    expect(await balanceMicros(harness, bob.id)).toBe(2_500_000n);
    expect(await ledgerTransferCount(harness)).toBe(before + 1n);

    await expect(db().execute(sql`update ledger_transfers set amount_usdt_micros = 1`)).rejects.toThrow();
    await expect(db().execute(sql`delete from ledger_transfers`)).rejects.toThrow();
  });

  it('refuses to overdraw a customer wallet with INSUFFICIENT_BALANCE and leaves everything as it was', async () => {
    const alice = await signUpVerifiedUser(harness.app);
    const bob = await signUpVerifiedUser(harness.app);
    await fundWallet(harness, admin, alice, '10');
    const before = await ledgerTransferCount(harness);
    const attempt = db().transaction((transaction) =>
      moveMoney(transaction, [
        { from: wallet(alice.id), to: wallet(bob.id), amountUsdtMicros: 6_000_000n, reason: 'transfer_credit', referenceId: randomUUID() },
        { from: wallet(alice.id), to: wallet(bob.id), amountUsdtMicros: 6_000_000n, reason: 'transfer_credit', referenceId: randomUUID() },
      ]),
    );
    await expect(attempt).rejects.toMatchObject({ statusCode: 400, code: 'INSUFFICIENT_BALANCE', message: 'Insufficient balance' });
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    expect(await balanceMicros(harness, alice.id)).toBe(10_000_000n);
    expect(await balanceMicros(harness, bob.id)).toBe(0n);
    expect(await ledgerTransferCount(harness)).toBe(before);
  });

  it('treats a zero or negative amount, or a move to the same account, as a bug', async () => {
    const alice = await signUpVerifiedUser(harness.app);
    const bob = await signUpVerifiedUser(harness.app);
    for (const amountUsdtMicros of [0n, -1n]) {
      const attempt = db().transaction((transaction) =>
        moveMoney(transaction, [{ from: wallet(alice.id), to: wallet(bob.id), amountUsdtMicros, reason: 'transfer_credit', referenceId: randomUUID() }]),
      );
      await expect(attempt).rejects.not.toBeInstanceOf(AppError);
      await expect(attempt).rejects.toThrow(`ledger movement must be positive, got ${amountUsdtMicros}`);
    }
    await expect(
      db().transaction((transaction) =>
        moveMoney(transaction, [{ from: wallet(alice.id), to: wallet(alice.id), amountUsdtMicros: 1n, reason: 'transfer_credit', referenceId: randomUUID() }]),
      ),
    ).rejects.toThrow(`ledger movement from an account to itself (wallet:${alice.id})`);
  });

  it('credits many wallets out of house accounts by their sums, one row per movement, and rolls all back when an account is missing', async () => {
    const alice = await signUpVerifiedUser(harness.app);
    const bob = await signUpVerifiedUser(harness.app);
    const credit = (userId: string, amountUsdtMicros: bigint, kind: 'deposits_received' | 'referral_rewards' = 'deposits_received') => ({
      from: house(kind),
      to: wallet(userId),
      amountUsdtMicros,
      reason: kind === 'deposits_received' ? ('deposit_credit' as const) : ('referral_reward' as const),
      referenceId: randomUUID(),
    });
    // Rolled back: movements without their deposits would not match the house accounts' requests (ledger:check).
    await inRolledBackTransaction(async (transaction) => {
      const balances = async () =>
        Object.fromEntries(
          (
            await transaction.execute<{ key: string; balance: bigint }>(
              sql`select coalesce(user_id::text, kind) as key, balance_usdt_micros as balance from ledger_accounts
                  where user_id in (${alice.id}, ${bob.id}) or (user_id is null and kind in ('deposits_received', 'referral_rewards'))`,
            )
          ).rows.map((row) => [row.key, row.balance]),
        );
      const transfers = async () => (await transaction.execute<{ count: bigint }>(sql`select count(*)::bigint as count from ledger_transfers`)).rows[0]?.count;
      const before = await balances();
      const transfersBefore = await transfers();
      await moveMoney(transaction, [
        credit(alice.id, 5_000_000n),
        credit(bob.id, 1_000_000n),
        credit(alice.id, 2_000_000n),
        credit(bob.id, 3_000n, 'referral_rewards'),
      ]);
      expect(await balances()).toEqual({
        [alice.id]: 7_000_000n,
        [bob.id]: 1_003_000n,
        deposits_received: (before.deposits_received ?? 0n) - 8_000_000n,
        referral_rewards: (before.referral_rewards ?? 0n) - 3_000n,
      });
      expect(await transfers()).toBe((transfersBefore ?? 0n) + 4n);
    });

    const transfersBefore = await ledgerTransferCount(harness);
    await expect(db().transaction((transaction) => moveMoney(transaction, [credit(alice.id, 1_000_000n), credit(randomUUID(), 1_000_000n)]))).rejects.toThrow(
      /ledger accounts missing/,
    );
    expect(await balanceMicros(harness, alice.id)).toBe(0n);
    expect(await ledgerTransferCount(harness)).toBe(transfersBefore);
  });

  it('never deadlocks when transactions move money in opposite directions at once', async () => {
    const alice = await signUpVerifiedUser(harness.app);
    const bob = await signUpVerifiedUser(harness.app);
    const carol = await signUpVerifiedUser(harness.app);
    await fundWallet(harness, admin, alice, '100');
    await fundWallet(harness, admin, bob, '100');
    await fundWallet(harness, admin, carol, '100');
    const users = [alice.id, bob.id, carol.id];
    const move = (index: number) => {
      const from = users[index % 3] as string;
      const to = users[(index + 1 + (index % 2)) % 3] as string;
      const third = users.find((user) => user !== from && user !== to) as string;
      // Several movements per transaction, in an order that would deadlock without the ordered locking.
      return db().transaction((transaction) =>
        moveMoney(transaction, [
          { from: wallet(to), to: wallet(from), amountUsdtMicros: 1n, reason: 'transfer_credit', referenceId: randomUUID() },
          { from: wallet(from), to: wallet(third), amountUsdtMicros: 2n, reason: 'transfer_credit', referenceId: randomUUID() },
          { from: wallet(third), to: wallet(to), amountUsdtMicros: 1n, reason: 'transfer_credit', referenceId: randomUUID() },
        ]),
      );
    };
    // Ten transactions in flight at all times: enough for opposite directions to meet, and few
    // enough that none waits out the pool's connection timeout on a loaded machine.
    const moveCount = 60;
    const inFlight = 10;
    let next = 0;
    const failures: unknown[] = [];
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < moveCount) {
          const index = next;
          next += 1;
          await move(index).catch((error: unknown) => failures.push(error));
        }
      }),
    );
    expect(failures).toEqual([]);
    const total = (await balanceMicros(harness, alice.id)) + (await balanceMicros(harness, bob.id)) + (await balanceMicros(harness, carol.id));
    expect(total).toBe(300_000_000n);
  });
});

describe('ledger check', () => {
  it('passes on a consistent ledger and says what it checked', async () => {
    const report = await checkLedger(db());
    expect(report.ok).toBe(true);
    expect(report.accountsChecked).toBeGreaterThan(5);
    expect(report.checks.map((check) => check.name)).toEqual([
      'cached balance equals the sum of transfers, for every account',
      'all balances add up to zero',
      'no customer wallet is negative',
      'house accounts match the deposits, withdrawals, transfers and referral rewards they hold',
    ]);
  });

  it('finds a cached balance changed without a ledger transfer', async () => {
    const alice = await signUpVerifiedUser(harness.app);
    await inRolledBackTransaction(async (transaction) => {
      await transaction.execute(sql`update ledger_accounts set balance_usdt_micros = balance_usdt_micros + 5 where user_id = ${alice.id}`);
      const report = await checkLedgerWithin(transaction);
      expect(report.ok).toBe(false);
      expect(failedChecks(report)).toEqual(['cached balance equals the sum of transfers, for every account', 'all balances add up to zero']);
      expect(report.checks[0]?.detail).toContain(`of user ${alice.id}) caches 5 but its transfers sum to 0`);
    });
  });

  it('finds a negative customer wallet', async () => {
    const alice = await signUpVerifiedUser(harness.app);
    const bob = await signUpVerifiedUser(harness.app);
    await inRolledBackTransaction(async (transaction) => {
      // Only possible with the CHECK constraint gone, which is what the check guards against.
      await transaction.execute(sql`alter table ledger_accounts drop constraint ledger_accounts_wallet_not_negative`);
      await transaction.execute(sql`update ledger_accounts set balance_usdt_micros = -3 where user_id = ${alice.id}`);
      await transaction.execute(sql`update ledger_accounts set balance_usdt_micros = 3 where user_id = ${bob.id}`);
      const report = await checkLedgerWithin(transaction);
      expect(failedChecks(report)).toContain('no customer wallet is negative');
      expect(report.checks[2]?.detail).toContain(`of user ${alice.id} holds -3`);
    });
  });

  it('finds a house account that does not match its requests', async () => {
    const alice = await signUpVerifiedUser(harness.app);
    await fundWallet(harness, admin, alice, '10');
    await inRolledBackTransaction(async (transaction) => {
      await transaction.execute(sql`update usdt_deposits set status = 'rejected' where user_id = ${alice.id}`);
      const report = await checkLedgerWithin(transaction);
      expect(failedChecks(report)).toEqual(['house accounts match the deposits, withdrawals, transfers and referral rewards they hold']);
    });
  });

  it('runs as `npm run ledger:check`: prints each check and exits 0, or 1 on a breach', { timeout: 60_000 }, async () => {
    const environment = { ...process.env, DATABASE_URL: harness.database.connectionString, LOG_LEVEL: 'silent' };
    const script = path.resolve('src/server/cli/ledger-check.ts');
    const tsx = path.resolve('node_modules/.bin/tsx');
    const passing = await run(tsx, [script], { env: environment });
    expect(passing.stdout).toContain('PASS  cached balance equals the sum of transfers, for every account');
    expect(passing.stdout).toContain('Ledger is consistent.');

    const alice = await signUpVerifiedUser(harness.app);
    await db().execute(sql`update ledger_accounts set balance_usdt_micros = 7 where user_id = ${alice.id}`);
    try {
      const failing = await run(tsx, [script], { env: environment }).then(
        () => undefined,
        (error: { code: number; stdout: string }) => error,
      );
      expect(failing?.code).toBe(1);
      expect(failing?.stdout).toContain('FAIL  cached balance equals the sum of transfers, for every account');
      expect(failing?.stdout).toContain('LEDGER BREACH');
    } finally {
      await db().execute(sql`update ledger_accounts set balance_usdt_micros = 0 where user_id = ${alice.id}`);
    }
  });
});
