import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { planUserSearch } from '../../src/server/features/admin/user-search-plan.ts';
import { loadSearchSample } from '../../src/server/features/admin/users-repository.ts';
import { normalizePhone } from '#shared/contracts/auth';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

const { harness } = useIntegrationFile({ admin: false, depositAddresses: false });
const CUSTOMERS = 100_000;
const SAMPLES = 8;

/**
 * Customers made in order, as the bench's scale data is: neighbours share a page of user_search and
 * most of their e-mail ("customer-054321@example.com", "customer-054322@..."), so a sample of a few
 * whole pages sees a few clusters of look-alikes.
 */
async function seedLookAlikeCustomers(): Promise<void> {
  const db = harness.database.handle.db;
  await db.execute(sql`
    create temporary table sample_customers as
    select i, gen_random_uuid() as id, now() - interval '2 days' - i * interval '1 minute' as created_at
    from generate_series(0, ${CUSTOMERS - 1}) as i`);
  await db.execute(sql`
    insert into users (id, email, password_hash, created_at, updated_at)
    select id, 'customer-' || lpad(i::text, 6, '0') || '@example.com', 'not-a-real-hash', created_at, created_at from sample_customers`);
  await db.execute(sql`
    insert into profiles (user_id, name, phone, role, vip_level, referral_code, created_at, updated_at)
    select id, (array['Aarav','Diya','Ishaan','Myra'])[1 + i % 4] || ' ' || (array['Sharma','Kumar','Nair','Iyer','Das'])[1 + (i / 4) % 5],
           '+91' || (7000000000 + i * 13)::text, 'user', 'normal', 'SAMPL' || lpad(i::text, 5, '0'), created_at, created_at
    from sample_customers`);
  await db.execute(sql`analyze user_search`);
}

/** The share of the table's users whose name or e-mail matches `%piece%` (a trigram: how long its index list is). */
async function shareHolding(piece: string): Promise<number> {
  const rows = await harness.database.handle.db.execute<{ share: number }>(
    sql`select (count(*) filter (where search_text like ${`%${piece}%`}))::float8 / count(*) as share from user_search`,
  );
  return rows.rows[0]!.share;
}

/** The trigrams of a LIKE pattern's pieces: the lists the index reads for it. */
function trigramsAskedFor(pattern: string): string[] {
  return pattern
    .split('%')
    .filter((piece) => piece.length > 0)
    .flatMap((piece) => Array.from({ length: piece.length - 2 }, (_, start) => piece.slice(start, start + 3)));
}

describe('the sample the user search plans from', () => {
  it(
    'asks the indexes only for rare pieces of a query, the same for a phone, in every sample of a table of look-alike neighbours',
    { timeout: 120_000 },
    async () => {
      await seedLookAlikeCustomers();
      const phonePatterns = new Set<string>();
      const searchTextPatterns: string[] = [];
      const estimates: number[] = [];
      for (let sample = 0; sample < SAMPLES; sample += 1) {
        const loaded = await loadSearchSample(harness.database.handle.db);
        estimates.push(loaded.tableRows);
        // Customer 4242's phone is +917000055146 and e-mail customer-004242@example.com.
        const byPhone = planUserSearch('7000055146', '7000055146', 21, loaded);
        expect(byPhone.way).toBe('collect-matches');
        if (byPhone.way !== 'collect-matches') continue;
        phonePatterns.add(byPhone.phonePattern);
        const byEmail = planUserSearch('customer-004242', normalizePhone('customer-004242'), 21, loaded);
        expect(byEmail.way).toBe('collect-matches');
        // An e-mail cannot be in a phone, so only the pattern for names and e-mails is read.
        if (byEmail.way === 'collect-matches') searchTextPatterns.push(byPhone.searchTextPattern, byEmail.searchTextPattern);
      }
      // Every phone starts +917000, and its digits after that are rare pieces of different rarity:
      // with 32 whole pages the app chose two or three patterns for this query in eight samples.
      expect([...phonePatterns]).toEqual(['%55146%']);
      // Which pieces of an e-mail's digits are rare moves with the sample where one is near the
      // threshold ("005" and "042" are each in about 1.4 % of these users). Whichever are asked for,
      // no list read names more than 2 % of the users, and the pattern leaves few to compare.
      const asked = [...new Set(searchTextPatterns.flatMap(trigramsAskedFor))];
      for (const trigram of asked) expect(await shareHolding(trigram), trigram).toBeLessThanOrEqual(0.02);
      for (const pattern of new Set(searchTextPatterns)) expect(await shareHolding(pattern.slice(1, -1)), pattern).toBeLessThan(0.001);
      for (const estimate of estimates) expect(Math.abs(estimate - CUSTOMERS) / CUSTOMERS).toBeLessThan(0.1);
    },
  );
});
