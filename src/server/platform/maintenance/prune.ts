import { sql } from 'drizzle-orm';
import type { SessionSettings } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { KNOWN_DEVICE_LIFETIME_DAYS } from '../../http/security.ts';
import { liveSession } from '../sessions/repository.ts';

/** How long a retried money request still finds its first answer. */
export const IDEMPOTENCY_KEY_LIFETIME_HOURS = 24;
/** Rate-limit windows are at most this long; older buckets count for nothing. */
const RATE_LIMIT_BUCKET_LIFETIME_HOURS = 24;
/** Reset tokens are valid 30 minutes; a day later they are only clutter. */
const RESET_TOKEN_RETENTION_HOURS = 24;

export interface PruneReport {
  sessions: number;
  rateLimitBuckets: number;
  rateLimitSlots: number;
  knownDevices: number;
  idempotencyKeys: number;
  passwordResetTokens: number;
  outboxBodies: number;
  smsOutboxBodies: number;
}

async function deleted(db: Executor, statement: ReturnType<typeof sql>): Promise<number> {
  const result = await db.execute(statement);
  return result.rowCount ?? 0;
}

/**
 * Removes what can no longer be used, so that no table grows without bound:
 * expired sessions, old rate-limit counters and turns, browsers not seen
 * signing in for the known-device lifetime, idempotency keys past their
 * lifetime, old reset tokens, and mail bodies held in the outbox (they carry
 * reset links) once those links have expired, and texts held in the SMS outbox
 * (they carry one-time codes) once the codes have.
 */
export async function pruneExpiredRecords(db: Executor, sessionSettings: SessionSettings): Promise<PruneReport> {
  return {
    sessions: await deleted(db, sql`delete from sessions where not (${liveSession(sessionSettings)})`),
    rateLimitBuckets: await deleted(
      db,
      sql`delete from rate_limit_buckets where window_started_at <= now() - make_interval(hours => ${RATE_LIMIT_BUCKET_LIFETIME_HOURS})`,
    ),
    rateLimitSlots: await deleted(
      db,
      sql`delete from rate_limit_slots where next_check_at <= now() - make_interval(hours => ${RATE_LIMIT_BUCKET_LIFETIME_HOURS})`,
    ),
    knownDevices: await deleted(db, sql`delete from known_devices where last_signed_in_at <= now() - make_interval(days => ${KNOWN_DEVICE_LIFETIME_DAYS})`),
    idempotencyKeys: await deleted(db, sql`delete from idempotency_keys where created_at <= now() - make_interval(hours => ${IDEMPOTENCY_KEY_LIFETIME_HOURS})`),
    passwordResetTokens: await deleted(
      db,
      sql`delete from password_reset_tokens where expires_at <= now() - make_interval(hours => ${RESET_TOKEN_RETENTION_HOURS})`,
    ),
    outboxBodies: await deleted(
      db,
      sql`update mail_outbox set text_body = null, html_body = null
            where (text_body is not null or html_body is not null) and created_at <= now() - interval '30 minutes'`,
    ),
    // Texts in the SMS outbox carry one-time codes, which die after 10 minutes (decision 041).
    smsOutboxBodies: await deleted(db, sql`update sms_outbox set body = null where body is not null and created_at <= now() - interval '30 minutes'`),
  };
}
