import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SESSION_SETTINGS } from '../../src/server/context.ts';
import { pruneExpiredRecords } from '../../src/server/platform/maintenance/prune.ts';
import { call, signUpUser } from '../fixtures/test-app.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

const { harness } = useIntegrationFile({ depositAddresses: false, admin: false });

async function count(table: string): Promise<number> {
  const result = await harness.database.handle.db.execute<{ count: number }>(sql.raw(`select count(*)::int as count from ${table}`));
  return result.rows[0]?.count ?? 0;
}

describe('pruning expired records', () => {
  it('removes only what can no longer be used', async () => {
    const { db } = harness.database.handle;
    const expired = await signUpUser(harness.app);
    const active = await signUpUser(harness.app);
    await db.execute(sql`update sessions set last_seen_at = now() - interval '31 minutes' where user_id = ${expired.id}`);
    await call(harness.app, { method: 'POST', url: '/api/auth/forgot-password', body: { email: active.email } });
    await db.execute(sql`insert into password_reset_tokens (user_id, token_hash, expires_at) values (${active.id}, '\\x01', now() - interval '2 days')`);
    await db.execute(sql`insert into rate_limit_buckets (key, window_started_at, hits) values ('old', now() - interval '2 days', 3), ('new', now(), 1)`);
    await db.execute(sql`insert into rate_limit_slots (key, next_check_at) values ('old', now() - interval '2 days'), ('new', now() + interval '1 minute')`);
    // Both signed up in their browsers; the expired one has not signed in from it for longer than a browser stays known.
    await db.execute(sql`update known_devices set last_signed_in_at = now() - interval '181 days' where user_id = ${expired.id}`);
    await db.execute(sql`insert into idempotency_keys (user_id, key, operation, request_hash, response_status, response_body, created_at)
      values (${active.id}, 'old-key', 'withdrawal', 'x', 201, '{}', now() - interval '25 hours'), (${active.id}, 'new-key', 'withdrawal', 'x', 201, '{}', now())`);
    await db.execute(
      sql`insert into mail_outbox (to_address, subject, text_body, created_at) values ('a@example.com', 'old', 'link', now() - interval '31 minutes'), ('b@example.com', 'new', 'link', now())`,
    );
    await db.execute(
      sql`insert into sms_outbox (to_number, provider, body, created_at) values ('+919800000001', 'outbox', 'old code', now() - interval '31 minutes'), ('+919800000002', 'outbox', 'new code', now())`,
    );

    const report = await pruneExpiredRecords(db, DEFAULT_SESSION_SETTINGS);
    expect(report).toEqual({
      sessions: 1,
      rateLimitBuckets: 1,
      rateLimitSlots: 1,
      knownDevices: 1,
      idempotencyKeys: 1,
      passwordResetTokens: 1,
      outboxBodies: 1,
      smsOutboxBodies: 1,
    });

    expect((await call(harness.app, { url: '/api/me', cookie: active.cookie })).statusCode).toBe(200);
    expect(await count('password_reset_tokens')).toBe(1);
    expect(await count('rate_limit_buckets')).toBeGreaterThanOrEqual(1);
    expect(await count('rate_limit_slots')).toBe(1);
    const knownDevices = await db.execute<{ userId: string }>(sql`select user_id as "userId" from known_devices`);
    expect(knownDevices.rows.map((row) => row.userId)).toEqual([active.id]);
    const keys = await db.execute<{ key: string }>(sql`select key from idempotency_keys`);
    expect(keys.rows.map((row) => row.key)).toEqual(['new-key']);
    // Sign-up's verification mails (decision 041) are fresh too and left out of this list.
    const bodies = await db.execute<{ subject: string }>(
      sql`select subject from mail_outbox where text_body is not null and subject not like '%verify your e-mail address' order by subject`,
    );
    // The reset mail requested above is fresh: its link still works, so the developer's outbox keeps it.
    expect(bodies.rows.map((row) => row.subject)).toEqual(['Rupeedesk: reset your password', 'new']);
    const texts = await db.execute<{ body: string }>(sql`select body from sms_outbox where body is not null`);
    expect(texts.rows.map((row) => row.body)).toEqual(['new code']);

    expect(await pruneExpiredRecords(db, DEFAULT_SESSION_SETTINGS)).toEqual({
      sessions: 0,
      rateLimitBuckets: 0,
      rateLimitSlots: 0,
      knownDevices: 0,
      idempotencyKeys: 0,
      passwordResetTokens: 0,
      outboxBodies: 0,
      smsOutboxBodies: 0,
    });
  });
});
