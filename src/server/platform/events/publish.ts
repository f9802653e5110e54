import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

/** The PostgreSQL channel every server process listens on for live updates. */
export const EVENTS_CHANNEL = 'rupeedesk_events';

export type AppEvent =
  /** Rates or other public settings changed: every open page refreshes them. */
  | { type: 'settings.updated' }
  /** Something about one user's money changed: their balance, history and pending lists refresh. */
  | { type: 'wallet.updated'; userId: string; reason: string }
  /** Something waiting for admins changed (new or decided deposit, withdrawal, transfer). */
  | { type: 'admin.queue.updated' };

/**
 * Publishes an event with NOTIFY. Inside a transaction PostgreSQL delivers it
 * only at commit, so listeners never hear of a change that was rolled back.
 */
export async function publishEvent(db: Executor, event: AppEvent): Promise<void> {
  await db.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(event)})`);
}
