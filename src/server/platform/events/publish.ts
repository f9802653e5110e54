import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedStatement, queryPreparedIn } from '../../db/prepared.ts';

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

const publishManyStatement = preparedStatement<{ published: number }>(
  'publish_events',
  `select count(pg_notify($1, payload))::int as published from unnest($2::text[]) as payload`,
);

/** Publishes several events in one statement, in order; like publishEvent, inside a transaction they are delivered at commit. */
export async function publishEvents(db: Executor, events: readonly AppEvent[]): Promise<void> {
  await queryPreparedIn(db, publishManyStatement, [EVENTS_CHANNEL, events.map((event) => JSON.stringify(event))]);
}
