import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { NotificationKind } from '#shared/contracts/notifications';
import type { Executor } from '../../db/client.ts';
import { notificationPreferences, notifications, profiles, users } from '../../db/schema.ts';
import type { Language } from '#shared/contracts/enums';
import { cursorTimestamp, olderThan, type PageCursor } from '../pagination/cursor.ts';
import { preparedStatement, queryPreparedIn } from '../../db/prepared.ts';
import { publishEventsColumn, publishedEventValues, type AppEvent } from '../events/publish.ts';

/** What a notification says, in one language. */
export interface NotificationTexts {
  title: string;
  body: string;
  emailSubject: string;
  emailText: string;
}

/** A notification in English, with its Hindi when it has one; the reader's profile language picks which is stored. */
export interface NewNotification extends NotificationTexts {
  userId: string;
  kind: NotificationKind;
  link: string | null;
  hindi?: NotificationTexts;
}

/**
 * Inserts a batch of notifications, each in its reader's language (the profile's: the Hindi texts
 * when the reader reads Hindi and the notification has them, else the English), and publishes the
 * given events, all in one statement: a batch used to take three round trips (the languages, the
 * rows, the events) inside the decision's transaction (decision 045, round 22).
 */
const insertInReadersLanguageStatement = preparedStatement<{ inserted: number; eventsPublished: number }>(
  'notifications_insert_in_readers_language',
  `with item as (
     select * from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
       $8::text[], $9::text[], $10::text[], $11::text[]) with ordinality
       as t(user_id, kind, link, title, body, email_subject, email_text, hindi_title, hindi_body, hindi_email_subject, hindi_email_text, position)
   ),
   inserted as (
     insert into notifications (user_id, kind, title, body, link, email_subject, email_text)
     select i.user_id, i.kind,
       case when p.language = 'hi' then i.hindi_title else i.title end,
       case when p.language = 'hi' then i.hindi_body else i.body end,
       i.link,
       case when p.language = 'hi' then i.hindi_email_subject else i.email_subject end,
       case when p.language = 'hi' then i.hindi_email_text else i.email_text end
     from item i left join profiles p on p.user_id = i.user_id and i.hindi_title is not null
     order by i.position
     returning id
   )
   select (select count(*) from inserted)::int as inserted,
     ${publishEventsColumn('$12', '$13')}`,
);

export async function insertInReadersLanguage(db: Executor, items: readonly NewNotification[], events: readonly AppEvent[]): Promise<void> {
  if (items.length === 0) return;
  const column = (pick: (item: NewNotification) => string | null) => items.map(pick);
  await queryPreparedIn(db, insertInReadersLanguageStatement, [
    column((item) => item.userId),
    column((item) => item.kind),
    column((item) => item.link),
    column((item) => item.title),
    column((item) => item.body),
    column((item) => item.emailSubject),
    column((item) => item.emailText),
    column((item) => item.hindi?.title ?? null),
    column((item) => item.hindi?.body ?? null),
    column((item) => item.hindi?.emailSubject ?? null),
    column((item) => item.hindi?.emailText ?? null),
    ...publishedEventValues(events),
  ]);
}

export interface NotificationRow {
  id: string;
  kind: NotificationKind;
  title: string;
  body: string;
  link: string | null;
  createdAtIso: string;
  cursorCreatedAt: string;
  read: boolean;
}

export async function listForUser(db: Executor, userId: string, cursor: PageCursor | undefined, limit: number): Promise<NotificationRow[]> {
  return db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      title: notifications.title,
      body: notifications.body,
      link: notifications.link,
      createdAtIso: sql<string>`to_char(${notifications.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      cursorCreatedAt: cursorTimestamp(notifications.createdAt),
      read: sql<boolean>`${notifications.readAt} is not null`,
    })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), olderThan(notifications.createdAt, notifications.id, cursor)))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit + 1);
}

export async function countUnread(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.count ?? 0;
}

export async function markAllRead(db: Executor, userId: string): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
}

export interface Preferences {
  emailDeposits: boolean;
  emailWithdrawals: boolean;
  emailTransfers: boolean;
}

export async function findPreferences(db: Executor, userId: string): Promise<Preferences | undefined> {
  const [row] = await db
    .select({
      emailDeposits: notificationPreferences.emailDeposits,
      emailWithdrawals: notificationPreferences.emailWithdrawals,
      emailTransfers: notificationPreferences.emailTransfers,
    })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  return row;
}

export async function savePreferences(db: Executor, userId: string, preferences: Preferences): Promise<void> {
  await db
    .insert(notificationPreferences)
    .values({ userId, ...preferences })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...preferences, updatedAt: sql`now()` } });
}

export interface PendingEmail {
  id: string;
  kind: string;
  to: string;
  subject: string;
  text: string;
  link: string | null;
  wanted: boolean;
  language: Language;
}

/**
 * Claims up to `limit` notifications whose e-mail is still to be sent, marking
 * them sent or skipped (by the owner's preference) in the same statement. Rows
 * another process is claiming are skipped, so each e-mail goes out once.
 */
export async function claimPendingEmails(db: Executor, limit: number): Promise<PendingEmail[]> {
  const result = await db.execute<{
    id: string;
    kind: string;
    to_address: string;
    subject: string;
    text_body: string;
    link: string | null;
    wanted: boolean;
    language: Language | null;
  }>(sql`
    with claimed as (
      select n.id,
        case
          when n.kind like 'deposit_%' then coalesce(p.email_deposits, true)
          when n.kind like 'withdrawal_%' then coalesce(p.email_withdrawals, true)
          else coalesce(p.email_transfers, true)
        end as wanted
      from ${notifications} n
      left join ${notificationPreferences} p on p.user_id = n.user_id
      where n.email_state = 'pending'
      order by n.created_at
      limit ${limit}
      for update of n skip locked
    )
    update ${notifications} n
    set email_state = case when claimed.wanted then 'sent' else 'skipped' end
    from claimed, ${users} u
    where n.id = claimed.id and u.id = n.user_id
    returning n.id, n.kind, u.email as to_address, n.email_subject as subject, n.email_text as text_body, n.link, claimed.wanted,
      (select language from ${profiles} where user_id = n.user_id) as language`);
  return result.rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    link: row.link,
    wanted: row.wanted,
    language: row.language ?? 'en',
  }));
}

export async function markEmailFailed(db: Executor, id: string): Promise<void> {
  await db.update(notifications).set({ emailState: 'failed' }).where(eq(notifications.id, id));
}

/** Admins told of what needs them (a chain incident, a stuck payout); more than this many is not a team this app serves. */
const MAX_ADMINS_TOLD = 100;

export async function adminUserIds(db: Executor): Promise<string[]> {
  const rows = await db.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.role, 'admin')).orderBy(profiles.userId).limit(MAX_ADMINS_TOLD);
  return rows.map((row) => row.userId);
}
