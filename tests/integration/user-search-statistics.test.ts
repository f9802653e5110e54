import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_USER_SEARCH_SAMPLE, planUserSearch, type UserSearchPlan } from '../../src/server/features/admin/user-search-plan.ts';
import { loadSearchSample, searchUsers } from '../../src/server/features/admin/users-repository.ts';
import { normalizePhone } from '#shared/contracts/auth';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { call } from '../fixtures/test-app.ts';

// The user search chooses how to look from a sample of the table (user-search-plan.ts). These
// customers share most of their e-mail and phone, as the bench's 100,000 do.
const { harness, admin } = useIntegrationFile({ depositAddresses: false });
const db = () => harness.database.handle.db;
const CUSTOMERS = 400;

beforeAll(async () => {
  await db().execute(sql`
    create temporary table stats_customers as
    select i, gen_random_uuid() as id, now() - interval '1 day' - i * interval '1 minute' as created_at
    from generate_series(0, ${CUSTOMERS - 1}) as i`);
  await db().execute(sql`
    insert into users (id, email, password_hash, created_at, updated_at)
    select id, 'stats-customer-' || lpad((i * 7919 % 1000000)::text, 6, '0') || '@example.com', 'not-a-real-hash', created_at, created_at
    from stats_customers`);
  await db().execute(sql`
    insert into profiles (user_id, name, phone, role, vip_level, referral_code, created_at, updated_at)
    select id, (array['Kiran','Meera','Rohan','Tara'])[1 + i % 4] || ' ' || (array['Bhatt','Rawat','Soni','Negi','Bisht'])[1 + (i / 4) % 5],
           '+91' || (7000000000 + i * 7)::text, 'user', 'normal', 'STATS' || lpad(i::text, 5, '0'), created_at, created_at
    from stats_customers`);
});

async function search(query: string, cursor?: string): Promise<{ ids: string[]; nextCursor: string | null }> {
  const url = `/api/admin/users?q=${encodeURIComponent(query)}&limit=20${cursor === undefined ? '' : `&cursor=${cursor}`}`;
  const response = await call(harness.app, { url, cookie: admin.cookie });
  expect(response.statusCode).toBe(200);
  const page = response.json<{ items: { id: string }[]; nextCursor: string | null }>();
  return { ids: page.items.map((item) => item.id), nextCursor: page.nextCursor };
}

/** Every page the API answers for the query, followed by its cursors. */
async function everyMatch(query: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await search(query, cursor);
    ids.push(...page.ids);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return ids;
}

/** Every page the repository answers for the query when told which way to look. */
async function everyMatchTheWay(query: string, plan: UserSearchPlan): Promise<string[]> {
  const ids: string[] = [];
  let cursor: { createdAt: string; id: string } | undefined;
  for (;;) {
    const rows = await searchUsers(db(), { query, cursor, limit: 20, plan });
    ids.push(...rows.map((row) => row.id));
    const last = rows.at(-1);
    if (rows.length < 20 || last === undefined) return ids;
    cursor = { createdAt: last.cursorCreatedAt, id: last.id };
  }
}

/** The same question asked plainly, without indexes or samples. */
async function expectedMatches(query: string): Promise<string[]> {
  const rows = await db().execute<{ id: string }>(sql`
    select u.id from users u join profiles p on p.user_id = u.id
    where strpos(lower(p.name), lower(${query})) > 0 or strpos(lower(u.email), lower(${query})) > 0
       or strpos(p.phone, ${normalizePhone(query)}) > 0
    order by u.created_at desc, u.id desc`);
  return rows.rows.map((row) => row.id);
}

const QUERIES = [
  'kiran',
  'Kiran Bhatt',
  'SONI',
  'stats-customer-0',
  'stats-customer-055433',
  '0000',
  '70000 00049',
  'example.com',
  'nobody-like-this',
  '%',
  'a_b',
];

describe('the user search on a table of customers who look alike', () => {
  it('samples the table, walks for a common name and asks the index only for the rare pieces of an e-mail or phone', async () => {
    const sample = await loadSearchSample(db());
    expect(sample.searchText.values.length).toBeGreaterThanOrEqual(CUSTOMERS);
    expect(sample.tableRows).toBe(sample.searchText.values.length);
    expect(planUserSearch('kiran', 'kiran', 21, sample)).toEqual({ way: 'walk-newest' });
    const byEmail = planUserSearch('stats-customer-055433', 'stats-customer055433', 21, sample);
    expect(byEmail.way).toBe('collect-matches');
    expect(byEmail.way === 'collect-matches' && byEmail.searchTextPattern).toMatch(/^%(05543|55433)%$/);
    const byPhone = planUserSearch('7000000497', '7000000497', 21, sample);
    expect(byPhone.way === 'collect-matches' && byPhone.phonePattern).not.toContain('700');
  });

  it('finds one customer by a piece of an e-mail or a phone number that every customer nearly shares', async () => {
    // Customer 7 has the e-mail stats-customer-055433@example.com and the phone +917000000049.
    const seventh = await expectedMatches('stats-customer-055433');
    expect(seventh).toHaveLength(1);
    expect((await search('Stats-Customer-055433')).ids).toEqual(seventh);
    expect(await expectedMatches('70000 00049')).toEqual(seventh);
    expect((await search('70000 00049')).ids).toEqual(seventh);
  });

  it('answers every match, newest first, page after page, whichever way it looks', async () => {
    const sample = await loadSearchSample(db());
    for (const query of QUERIES) {
      const expected = await expectedMatches(query);
      expect(await everyMatch(query), query).toEqual(expected);
      const chosen = planUserSearch(query, normalizePhone(query), 21, sample);
      const withoutSample = planUserSearch(query, normalizePhone(query), 21, EMPTY_USER_SEARCH_SAMPLE);
      for (const plan of [{ way: 'walk-newest' } as const, chosen, withoutSample]) {
        expect(await everyMatchTheWay(query, plan), `${query} ${JSON.stringify(plan)}`).toEqual(expected);
      }
    }
  });
});
