import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pruneSpentContactChecks } from '../../src/server/features/contact-verification/repository.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { signUpUser } from '../fixtures/test-app.ts';

// E-mail links and mobile codes a day past their expiry are removed by the periodic pruning (decision 041).
const { harness } = useIntegrationFile({ depositAddresses: false, admin: false });

describe('pruning spent contact checks', () => {
  it('removes links and codes a day past their expiry, and keeps the newer ones the daily limits still count', async () => {
    const { db } = harness.database.handle;
    const user = await signUpUser(harness.app);
    const hash = sql`decode(repeat('ab', 32), 'hex')`;
    const salt = sql`decode(repeat('cd', 16), 'hex')`;
    await db.execute(sql`insert into email_verification_tokens (user_id, token_hash, email, purpose, created_at, expires_at) values
      (${user.id}, ${hash}, ${user.email}, 'verify', now() - interval '49 hours', now() - interval '25 hours'),
      (${user.id}, decode(repeat('ef', 32), 'hex'), ${user.email}, 'verify', now() - interval '30 hours', now() - interval '6 hours')`);
    await db.execute(sql`insert into phone_verification_codes (user_id, phone, code_salt, code_hash, created_at, expires_at) values
      (${user.id}, '+919800000001', ${salt}, ${hash}, now() - interval '25 hours', now() - interval '24 hours 50 minutes'),
      (${user.id}, '+919800000001', ${salt}, ${hash}, now() - interval '2 hours', now() - interval '110 minutes'),
      (${user.id}, '+919800000001', ${salt}, ${hash}, now(), now() + interval '10 minutes')`);

    expect(await pruneSpentContactChecks(db)).toEqual({ emailLinks: 1, mobileCodes: 1 });
    const links = await db.execute<{ count: number }>(sql`select count(*)::int as count from email_verification_tokens where user_id = ${user.id}`);
    // The sign-up's own link and the one expired six hours ago stay.
    expect(links.rows[0]?.count).toBe(2);
    const codes = await db.execute<{ count: number }>(sql`select count(*)::int as count from phone_verification_codes where user_id = ${user.id}`);
    expect(codes.rows[0]?.count).toBe(2);
    expect(await pruneSpentContactChecks(db)).toEqual({ emailLinks: 0, mobileCodes: 0 });
  });
});
