import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { recordAudits } from '../../../platform/audit/record.ts';
import { getSettings } from '../../settings/service.ts';

/*
 * The purge of KYC images after the retention (issue 32, decision 060): the images of accounts closed longer ago
 * than the setting's years (never below FIU-IND's 5, which the database holds too) lose their sealed bytes. The
 * rows, the KYC records and the sign-up trail stay; each purged account gets an audit row.
 */

/** At most this many accounts a run; the command says when more remain, and the next run takes them. */
export const PURGE_ACCOUNTS_PER_RUN = 500;

export interface PurgedAccount {
  userId: string;
  email: string;
  closedAt: Date;
  images: number;
}

export interface PurgeOutcome {
  retentionYears: number;
  accounts: PurgedAccount[];
  moreRemain: boolean;
}

/** The accounts whose images are due, oldest closure first, and with `purge` their images purged in one transaction. */
export async function purgeKycImagesPastRetention(db: Database, options: { purge: boolean }): Promise<PurgeOutcome> {
  return db.transaction(async (transaction) => {
    const { recordRetentionYears } = await getSettings(transaction);
    // The accounts' rows are locked, so two runs at once purge and audit each account once.
    const due = await transaction.execute<{ user_id: string; email: string; closed_at: Date; images: number }>(sql`
      select u.id as user_id, u.email, u.closed_at,
        (select count(*)::int from kyc_images i where i.user_id = u.id and i.purged_at is null) as images
      from users u
      where u.closed_at <= now() - make_interval(years => ${recordRetentionYears})
        and exists (select 1 from kyc_images i where i.user_id = u.id and i.purged_at is null)
      order by u.closed_at, u.id
      limit ${PURGE_ACCOUNTS_PER_RUN + 1}
      for update of u`);
    const accounts = due.rows
      .slice(0, PURGE_ACCOUNTS_PER_RUN)
      .map((row) => ({ userId: row.user_id, email: row.email, closedAt: new Date(row.closed_at), images: row.images }));
    const moreRemain = due.rows.length > PURGE_ACCOUNTS_PER_RUN;
    if (!options.purge || accounts.length === 0) return { retentionYears: recordRetentionYears, accounts, moreRemain };
    const purged = await transaction.execute<{ user_id: string; images: number }>(sql`
      with purged as (
        update kyc_images set purged_at = now(), content = null, wrapped_key = null, content_iv = null, content_tag = null
        where purged_at is null and user_id in (${sql.join(
          accounts.map((account) => sql`${account.userId}::uuid`),
          sql`, `,
        )})
        returning user_id)
      select user_id, count(*)::int as images from purged group by user_id`);
    const purgedImages = new Map(purged.rows.map((row) => [row.user_id, row.images]));
    // A run that waited for another's locks finds some images already gone: it reports and audits only what it removed.
    const purgedAccounts = accounts.map((account) => ({ ...account, images: purgedImages.get(account.userId) ?? 0 })).filter((account) => account.images > 0);
    await recordAudits(
      transaction,
      purgedAccounts.map((account) => ({
        actorUserId: null,
        action: 'kyc.images_purge',
        targetType: 'user',
        targetId: account.userId,
        targetUserId: account.userId,
        after: { images: account.images, closedAt: account.closedAt.toISOString(), retentionYears: recordRetentionYears },
      })),
    );
    return { retentionYears: recordRetentionYears, accounts: purgedAccounts, moreRemain };
  });
}
