import assert from 'node:assert/strict';
import { LIMITS } from '#shared/limits';
import type { Database } from '../../db/client.ts';
import { preparedStatement, queryPrepared, type PreparedStatement } from '../../db/prepared.ts';
import type { PageCursor } from './cursor.ts';

/** The columns `partyColumns` selects for a person under `prefix`: `<prefix>Id`, `<prefix>Name`, `<prefix>Email`, `<prefix>Phone`. */
export type PartyColumns<Prefix extends string> = Record<`${Prefix}Id` | `${Prefix}Name` | `${Prefix}Email` | `${Prefix}Phone`, string>;

/** A person (id, name, e-mail, phone) from a joined `users` and `profiles`, prefixed so that two people fit in one row. */
export function partyColumns(usersAlias: string, profilesAlias: string, prefix: string): string {
  return `${usersAlias}.id as "${prefix}Id", ${profilesAlias}.name as "${prefix}Name", ${usersAlias}.email as "${prefix}Email", ${profilesAlias}.phone as "${prefix}Phone"`;
}

/** The person `partyColumns` selected under `prefix`, read back from the row. */
export function partyOf<Prefix extends string>(row: PartyColumns<Prefix>, prefix: Prefix): { id: string; name: string; email: string; phone: string } {
  return { id: row[`${prefix}Id`], name: row[`${prefix}Name`], email: row[`${prefix}Email`], phone: row[`${prefix}Phone`] };
}

/**
 * The row count a prepared statement's SQL is written with for a page that needs `rows` rows: the
 * smallest of a few fixed counts that holds them. Written as a number rather than sent as a
 * parameter: with `limit $1` PostgreSQL's generic plan assumes a tenth of the table, finds it dearer
 * than a plan for the actual value, and so plans the statement again on every execution (seen in
 * pg_prepared_statements: custom plans only). Only a few counts are planned because every statement
 * stays in the memory of each connection that ran it (a plan of the history's union takes about
 * half a megabyte): with one statement per page size, a caller stepping through the sizes from 1 to
 * 100 could make each connection hold a hundred such plans per shape of request. The statement may
 * so read a few rows more than the page needs; `toPage` and `toPageBy` keep only the page.
 */
export function planLimit(rows: number): number {
  const planned = PLANNED_LIMITS.find((limit) => limit >= rows);
  assert.ok(Number.isInteger(rows) && rows >= 1 && planned !== undefined, `a page of ${rows} rows is out of bounds`);
  return planned;
}
/** The page sizes the web app asks for (5, 20 and 50), 10, and the largest a caller may ask for, each with the row that tells whether another page follows. */
export const PLANNED_LIMITS: readonly number[] = [6, 11, 21, 51, LIMITS.pageSizeMax + 1];

/** The SQL of a newest-first list; each part is fixed SQL written by a repository, never input. */
export interface KeysetListSql {
  /** The prefix of the prepared statements' names. */
  name: string;
  /** The select list. */
  select: string;
  /** The from clause with its joins. */
  from: string;
  /** The alias of the listed table, whose status, created_at and id filter and order the list. */
  alias: string;
  /** Every status the list can be filtered by. */
  statuses: readonly string[];
}

export interface KeysetPageQuery {
  status: string | undefined;
  cursor: PageCursor | undefined;
  limit: number;
}

/**
 * A newest-first keyset list read with prepared statements: one per shape of request (which
 * status or none, first page or after a cursor, page size), its SQL written the first time that
 * shape is asked for, so a request builds no SQL and PostgreSQL plans it once per connection. Each row also
 * carries `cursorCreatedAt`, created_at at full precision, for the next page's cursor. The page
 * holds `limit + 1` rows at most, the last one only telling that another page exists.
 */
export function keysetList<Row>(list: KeysetListSql): (db: Database, query: KeysetPageQuery) => Promise<(Row & { cursorCreatedAt: string })[]> {
  const statements = new Map<string, PreparedStatement<Row & { cursorCreatedAt: string }>>();
  const { alias } = list;
  return async (db, query) => {
    const pageRows = planLimit(query.limit + 1);
    const values: unknown[] = [];
    const conditions: string[] = [];
    if (query.status !== undefined) {
      // Written into the SQL like the page size, so that the plan knows how few rows a status such as
      // pending has (as a parameter the generic plan assumed a third of the table and added caches
      // that made the pending queue several times slower on 100,000 customers).
      assert.ok(list.statuses.includes(query.status) && /^[a-z_]+$/.test(query.status), `unknown status ${query.status}`);
      conditions.push(`${alias}.status = '${query.status}'`);
    }
    if (query.cursor !== undefined) {
      values.push(query.cursor.createdAt, query.cursor.id);
      conditions.push(`(${alias}.created_at, ${alias}.id) < ($${values.length - 1}::timestamptz, $${values.length}::uuid)`);
    }
    const name = `${list.name}_${query.status ?? 'any'}_${query.cursor === undefined ? 'first' : 'after'}_${pageRows}`;
    let statement = statements.get(name);
    if (statement === undefined) {
      statement = preparedStatement(
        name,
        `select ${list.select}, to_char(${alias}.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "cursorCreatedAt"
         from ${list.from}
         ${conditions.length === 0 ? '' : `where ${conditions.join(' and ')}`}
         order by ${alias}.created_at desc, ${alias}.id desc
         limit ${pageRows}`,
      );
      statements.set(name, statement);
    }
    return queryPrepared(db, statement, values);
  };
}
