import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { preparedStatement, queryPrepared } from '../../src/server/db/prepared.ts';
import { HISTORY_PARTS, listHistory, type HistoryParts } from '../../src/server/features/transactions/repository.ts';
import { PLANNED_LIMITS } from '../../src/server/platform/pagination/keyset-statements.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { signUpFundedCustomer } from '../fixtures/wallet.ts';

// A file of its own: the history's statements are counted from the first one this process writes.
const { harness, admin } = useIntegrationFile();

describe('the statements each connection keeps planned', () => {
  it('runs a statement that is not named without leaving it on the connection', async () => {
    const statement = preparedStatement<{ doubled: number }>('test_unnamed_shape', 'select $1::int * 2 as doubled', { named: false });
    const connection = await harness.database.handle.db.$client.connect();
    try {
      const onOneConnection = { $client: connection } as unknown as Database;
      expect(await queryPrepared(onOneConnection, statement, [21])).toEqual([{ doubled: 42 }]);
      expect(await queryPrepared(onOneConnection, statement, [4])).toEqual([{ doubled: 8 }]);
      const kept = await connection.query(`select name from pg_prepared_statements where statement like '%$1::int * 2%'`);
      expect(kept.rows).toEqual([]);
    } finally {
      connection.release();
    }
  });

  it('keeps at most 160 shapes of the history planned, and answers every other shape the same', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '100');
    const future = { createdAt: '2999-01-01T00:00:00.000000Z', id: 'ffffffff-ffff-4fff-bfff-ffffffffffff' };
    const connection = await harness.database.handle.db.$client.connect();
    try {
      const onOneConnection = { $client: connection } as unknown as Database;
      let shapes = 0;
      for (let mask = 1; mask < 2 ** HISTORY_PARTS.length; mask += 1) {
        const parts = Object.fromEntries(HISTORY_PARTS.map((part, index) => [part, (mask & (1 << index)) !== 0])) as HistoryParts;
        for (const status of [undefined, 'approved'] as const) {
          for (const cursor of [undefined, future]) {
            for (const planned of PLANNED_LIMITS) {
              const rows = await listHistory(onOneConnection, { userId: customer.id, type: undefined, status, parts, cursor, limit: planned - 1 });
              // The customer's one entry is its funding deposit, approved: found exactly when the deposits are read.
              expect(rows.map((row) => row.type)).toEqual(parts.deposits ? ['deposit'] : []);
              shapes += 1;
            }
          }
        }
      }
      expect(shapes).toBe(620);
      const kept = await connection.query<{ count: number }>(`select count(*)::int as count from pg_prepared_statements where name like 'history\\_%'`);
      expect(kept.rows[0]?.count).toBe(160);
    } finally {
      connection.release();
    }
  });
});
