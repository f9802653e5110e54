import { describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../src/server/db/client.ts';
import { listHistory, type HistoryParts } from '../../src/server/features/transactions/repository.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

const { harness } = useIntegrationFile({ admin: false, depositAddresses: false });

const LIGHT_CUSTOMERS = 2_000;
const HEAVY_CUSTOMER_DEPOSITS = 4_000;
const DEPOSITS_ONLY: HistoryParts = { deposits: true, withdrawals: false, transfersSent: false, transfersReceived: false, referralBonuses: false };

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
 * Rejected deposits, made in time order as a live system makes them: one customer owns one in five,
 * 2,000 others a few each. Rejected deposits move no money, so the ledger check still passes.
 */
async function seedOneHeavyCustomer(): Promise<string> {
  const client = harness.database.handle.pool;
  const heavy = await client.query<{ id: string }>(`insert into users (email, password_hash) values ('heavy@example.com', 'unused') returning id`);
  await client.query(
    `insert into users (email, password_hash) select 'light-' || i || '@example.com', 'unused' from generate_series(1, ${LIGHT_CUSTOMERS}) as i`,
  );
  await client.query(
    `with light as (select array_agg(id order by id) as ids from users where email like 'light-%')
     insert into usdt_deposits (user_id, network, amount_usdt_micros, transaction_hash, deposit_address, status, created_at, decided_at, rejection_reason)
     select case when i % 5 = 0 then $1::uuid else light.ids[1 + i % ${LIGHT_CUSTOMERS}] end,
            'TRC20', 1000000, md5('first-' || i) || md5('second-' || i), 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'rejected',
            now() - interval '30 days' + i * interval '1 minute', now() - interval '30 days' + i * interval '1 minute', 'Seeded'
     from light, generate_series(1, ${HEAVY_CUSTOMER_DEPOSITS * 5}) as i`,
    [heavy.rows[0]!.id],
  );
  await client.query('analyze');
  return heavy.rows[0]!.id;
}

describe('the history statements at scale', () => {
  it('reads a customer with thousands of deposits only as far as the page, in the plan every customer shares', async () => {
    const heavyCustomerId = await seedOneHeavyCustomer();
    const connection = await harness.database.handle.pool.connect();
    try {
      const onOneConnection = { $client: connection } as unknown as Database;
      expect((await connection.query('show random_page_cost')).rows[0]).toEqual({ random_page_cost: '1.1' });
      // The customer's own view (only the parts with entries) and the admin's (all five parts).
      for (const parts of [DEPOSITS_ONLY, undefined]) {
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
        const depositScans = nodesOf(explained.rows[0]!['QUERY PLAN'][0].Plan).filter((node) => node['Relation Name'] === 'usdt_deposits');
        expect(depositScans.map((node) => node['Node Type'])).toEqual(['Index Scan']);
        // The page is 20 rows, read with the one that tells whether more follow; the index may hand over one more
        // before the scan stops. Reading all 4,000 of the customer's deposits and sorting them is what this guards against.
        expect(depositScans[0]!['Actual Rows']).toBeLessThanOrEqual(22);
      }
    } finally {
      connection.release();
    }
  });
});

describe("the app's connection settings", () => {
  it("starts every connection with the app's settings, and lets the operator's PGOPTIONS override them", async () => {
    const saved = process.env.PGOPTIONS;
    process.env.PGOPTIONS = '-c random_page_cost=2 -c work_mem=8MB';
    const withOperatorOptions = connectDatabase(harness.database.connectionString, { maxConnections: 1 });
    try {
      const settings = await withOperatorOptions.pool.query(`select current_setting('random_page_cost') as cost, current_setting('work_mem') as memory`);
      expect(settings.rows[0]).toEqual({ cost: '2', memory: '8MB' });
    } finally {
      if (saved === undefined) delete process.env.PGOPTIONS;
      else process.env.PGOPTIONS = saved;
      await withOperatorOptions.close();
    }
    const plain = await harness.database.handle.pool.query(`select current_setting('random_page_cost') as cost`);
    expect(plain.rows[0]).toEqual({ cost: '1.1' });
  });
});
