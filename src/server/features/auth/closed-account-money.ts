import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { adminUserIds, createNotifications } from '../../platform/notifications/service.ts';
import { createPeriodicWorker, type PeriodicWorker } from '../../platform/workers/periodic.ts';
import { closedAccountMoneyForAdmin } from '../notifications/templates.ts';
import { findClosedAccountsWithUnnoticedBalance, takeClosedBalanceChange } from './account-closing-repository.ts';

/*
 * Money can still reach a closed account (decision 060): a transfer to its permanent deposit address, which the
 * chain follower credits as it credits every customer's, or a payout the bank reverses after it was paid. Rather
 * than a check in each of those paths, this worker compares every closed account's balance with the one admins
 * were last told of and tells every admin, in the app and by e-mail, when it rose. It is safe in every process at
 * once: the user's row lock decides which process tells.
 */

/** Accounts looked at per tick at most; the next tick takes the rest. */
const ACCOUNTS_PER_TICK = 200;
/** Money that waits in a closed account is not urgent to the minute. */
const INTERVAL_SECONDS = 60;

/** Tells the admins of each closed account whose balance rose; answers how many accounts were told of. */
export async function noticeMoneyInClosedAccounts(db: Database, notificationEmails?: { poke(): void }): Promise<number> {
  const candidates = await findClosedAccountsWithUnnoticedBalance(db, ACCOUNTS_PER_TICK);
  let told = 0;
  for (const closedUserId of candidates) {
    const rose = await db.transaction(async (transaction) => {
      const change = await takeClosedBalanceChange(transaction, closedUserId);
      // A fall (a vanished deposit taken back) is recorded without a word: there is nothing more to act on.
      if (change === undefined || change.balanceUsdtMicros <= change.noticedUsdtMicros) return false;
      const admins = await adminUserIds(transaction);
      await createNotifications(
        transaction,
        admins.map((userId) => closedAccountMoneyForAdmin({ userId, closedUserId, email: change.email, balanceUsdtMicros: change.balanceUsdtMicros })),
      );
      return true;
    });
    if (rose) told += 1;
  }
  if (told > 0) notificationEmails?.poke();
  return told;
}

export function createClosedAccountMoneyWorker(options: { db: Database; log: FastifyBaseLogger; notificationEmails: { poke(): void } }): PeriodicWorker {
  const { db, log, notificationEmails } = options;
  return createPeriodicWorker({
    intervalSeconds: INTERVAL_SECONDS,
    log,
    failureMessage: 'Closed-account money tick failed',
    tick: async () => {
      await noticeMoneyInClosedAccounts(db, notificationEmails);
    },
  });
}
