import { describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../src/server/db/client.ts';
import { listHistory, type HistoryParts } from '../../src/server/features/transactions/repository.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

const { harness } = useIntegrationFile({ admin: false, depositAddresses: false });

const LIGHT_CUSTOMERS = 2_000;
const HEAVY_CUSTOMER_ENTRIES = 4_000;
const NO_PARTS: HistoryParts = { deposits: false, withdrawals: false, transfersSent: false, transfersReceived: false, referralBonuses: false };
/** The history's tables with a part of the heavy customer's, and the customer's view of each alone. */
const HEAVY_PARTS = [
  { table: 'usdt_deposits', view: { ...NO_PARTS, deposits: true } },
  { table: 'withdrawal_requests', view: { ...NO_PARTS, withdrawals: true } },
] as const;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/**
 * Rejected deposits and withdrawals, made in time order as a live system makes them: one customer
 * owns one in five of each, 2,000 others a few each. Rejected requests move no money, so the ledger
 * check still passes.
 */
async function seedOneHeavyCustomer(): Promise<string> {
  const client = harness.database.handle.pool;
  const heavy = await client.query<{ id: string }>(`insert into users (email, password_hash) values ('heavy@example.com', 'unused') returning id`);
  await client.query(
    `insert into users (email, password_hash) select 'light-' || i || '@example.com', 'unused' from generate_series(1, ${LIGHT_CUSTOMERS}) as i`,
  );
  const owners = `with light as (select array_agg(id order by id) as ids from users where email like 'light-%'),
    entries as (select i, case when i % 5 = 0 then $1::uuid else light.ids[1 + i % ${LIGHT_CUSTOMERS}] end as user_id,
                       now() - interval '30 days' + i * interval '1 minute' as at
                from light, generate_series(1, ${HEAVY_CUSTOMER_ENTRIES * 5}) as i)`;
  await client.query(
    `${owners}
     insert into usdt_deposits (user_id, network, amount_usdt_micros, transaction_hash, deposit_address, status, created_at, decided_at, rejection_reason)
     select user_id, 'TRC20', 1000000, md5('first-' || i) || md5('second-' || i), 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'rejected', at, at, 'Seeded'
     from entries`,
    [heavy.rows[0]!.id],
  );
  await client.query(
    `${owners}
     insert into withdrawal_requests (user_id, account_holder_name, account_number, bank_name, ifsc_code, amount_usdt_micros, rate_inr_paise,
                                      rate_tier, amount_inr_paise, status, created_at, decided_at, rejection_reason)
     select user_id, 'Seeded Customer', '000123456789', 'State Bank of India', 'SBIN0001234', 10000000, 8300, 'normal', 83000, 'rejected', at, at, 'Seeded'
     from entries`,
    [heavy.rows[0]!.id],
  );
  await client.query('analyze');
  return heavy.rows[0]!.id;
}

describe('the history statements at scale', () => {
  it('reads a customer with thousands of entries of a kind only as far as the page, in the plan every customer shares', async () => {
    const heavyCustomerId = await seedOneHeavyCustomer();
    const connection = await harness.database.handle.pool.connect();
    try {
      const onOneConnection = { $client: connection } as unknown as Database;
      // The customer's view of each part alone, and the admin's view of all five parts.
      for (const parts of [...HEAVY_PARTS.map((part) => part.view), undefined]) {
        const page = await listHistory(onOneConnection, { userId: heavyCustomerId, type: undefined, status: undefined, parts, cursor: undefined, limit: 20 });
        expect(page).toHaveLength(21);
        const written = await connection.query<{ statement: string }>(
          `select statement from pg_prepared_statements where not from_sql order by prepare_time desc limit 1`,
        );
        // The generic plan is the one a connection settles on once customers with a few entries each have used it.
        await connection.query('set plan_cache_mode = force_generic_plan');
        await connection.query(`prepare generic_history as ${written.rows[0]!.statement}`);
        const explained = await connection.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `explain (analyze, format json) execute generic_history('${heavyCustomerId}')`,
        );
        await connection.query('deallocate generic_history');
        await connection.query('reset plan_cache_mode');
        const nodes = nodesOf(explained.rows[0]!['QUERY PLAN'][0].Plan);
        for (const { table, view } of HEAVY_PARTS) {
          if (parts !== undefined && parts !== view) continue;
          const scans = nodes.filter((node) => node['Relation Name'] === table);
          expect(scans.map((node) => `${table}: ${node['Node Type']}`)).toEqual([`${table}: Index Scan`]);
          // The page is 20 rows, read with the one that tells whether more follow; the index may hand over one more before
          // the scan stops. Reading all 4,000 of the customer's entries of the kind and sorting them is what this guards against.
          expect(scans[0]!['Actual Rows']).toBeLessThanOrEqual(22);
        }
      }
    } finally {
      connection.release();
    }
  });
});

describe("the app's connection settings", () => {
  async function settingsWith(connectionString: string, pgOptions: string | undefined): Promise<{ cost: string; memory: string }> {
    const saved = process.env.PGOPTIONS;
    if (pgOptions === undefined) delete process.env.PGOPTIONS;
    else process.env.PGOPTIONS = pgOptions;
    const handle = connectDatabase(connectionString, { maxConnections: 1 });
    try {
      const settings = await handle.pool.query<{ cost: string; memory: string }>(
        `select current_setting('random_page_cost') as cost, current_setting('work_mem') as memory`,
      );
      return settings.rows[0]!;
    } finally {
      if (saved === undefined) delete process.env.PGOPTIONS;
      else process.env.PGOPTIONS = saved;
      await handle.close();
    }
  }

  it("starts every connection with the app's settings, and lets the operator's own settings override them", async () => {
    const url = harness.database.connectionString;
    const defaultMemory = (await settingsWith(url, undefined)).memory;
    expect(await settingsWith(url, undefined)).toEqual({ cost: '1.1', memory: defaultMemory });
    expect(await settingsWith(url, '-c random_page_cost=2 -c work_mem=8MB')).toEqual({ cost: '2', memory: '8MB' });
    // As in libpq, the URL's options replace PGOPTIONS; the app's settings still come first.
    const withOptions = new URL(url);
    withOptions.searchParams.set('options', '-c work_mem=9MB');
    expect(await settingsWith(withOptions.toString(), '-c random_page_cost=2')).toEqual({ cost: '1.1', memory: '9MB' });
    withOptions.searchParams.set('options', '-c random_page_cost=3');
    expect(await settingsWith(withOptions.toString(), undefined)).toEqual({ cost: '3', memory: defaultMemory });
  });
});
