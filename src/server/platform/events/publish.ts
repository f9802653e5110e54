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

/** Publishes several events, in order, in one statement (see publishEvent). */
export async function publishEvents(db: Executor, events: readonly AppEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.execute(
    sql`select count(pg_notify(${EVENTS_CHANNEL}, payload)) from unnest(${sql.param(events.map((event) => JSON.stringify(event)))}::text[]) as payload`,
  );
}

/**
 * A column that publishes the events passed as two parameters (the channel and the payloads, see
 * publishedEventValues), in order: for a statement that publishes along with its other work.
 */
export function publishEventsColumn(channel: string, payloads: string): string {
  return `(select count(pg_notify(${channel}, payload)) from unnest(${payloads}::text[]) as payload)::int as "eventsPublished"`;
}

export function publishedEventValues(events: readonly AppEvent[]): [string, string[]] {
  return [EVENTS_CHANNEL, events.map((event) => JSON.stringify(event))];
}
