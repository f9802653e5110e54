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

describe('the sample the user search plans from', () => {
  it('sees the same pieces of a query as rare in every sample of a table of look-alike neighbours', { timeout: 120_000 }, async () => {
    await seedLookAlikeCustomers();
    const phonePlans = new Set<string>();
    const emailPlans = new Set<string>();
    const estimates: number[] = [];
    for (let sample = 0; sample < SAMPLES; sample += 1) {
      const loaded = await loadSearchSample(harness.database.handle.db);
      estimates.push(loaded.tableRows);
      // Customer 4242's phone is +917000055146 and e-mail customer-004242@example.com.
      phonePlans.add(JSON.stringify(planUserSearch('7000055146', '7000055146', 21, loaded)));
      const byEmail = planUserSearch('customer-004242', normalizePhone('customer-004242'), 21, loaded);
      // An e-mail cannot be in a phone, so only the pattern for names and e-mails is read.
      emailPlans.add(byEmail.way === 'collect-matches' ? byEmail.searchTextPattern : byEmail.way);
    }
    // Ask the indexes for the rarest pieces, the same ones every time: with 32 whole pages the app chose
    // among a handful of patterns for these queries, some reading lists that name thousands of users.
    expect([...phonePlans].map((plan) => JSON.parse(plan))).toEqual([{ way: 'collect-matches', searchTextPattern: '%55146%', phonePattern: '%55146%' }]);
    expect([...emailPlans]).toEqual(['%04242%']);
    for (const estimate of estimates) expect(Math.abs(estimate - CUSTOMERS) / CUSTOMERS).toBeLessThan(0.1);
  });
});
