// One measurement of one request under load (autocannon), the PostgreSQL CPU time it cost, and the
// number of SQL statements (round trips) one such request sends, counted by pg_stat_statements.
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import type pg from 'pg';

export interface Target {
  origin: string;
  method: 'GET' | 'POST';
  path: string;
  cookie?: string;
  /** Headers and body of the next request; lets one run rotate between customers. */
  next?: () => { cookie: string; body: string };
}

export interface Sample {
  requestsPerSecond: number;
  p50Milliseconds: number;
  p99Milliseconds: number;
  non2xx: number;
  errors: number;
  /** PostgreSQL processes' CPU time divided by the requests answered. */
  postgresCpuMillisecondsPerRequest: number;
}

function headersOf(target: Target, cookie: string | undefined): Record<string, string> {
  return { origin: target.origin, ...(cookie ? { cookie } : {}), ...(target.method === 'POST' ? { 'content-type': 'application/json' } : {}) };
}

/** CPU time (user + system) of the postmaster and each of its children, in clock ticks of 10 ms, by process id. */
export function postgresCpuTicks(postgresDataDirectory: string): Map<number, number> {
  const postmasterPid = Number(fs.readFileSync(path.join(postgresDataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const ticks = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // the process ended meanwhile
    }
    // The command name in brackets may contain spaces; the fields after it are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const parentPid = Number(fields[1]);
    if (Number(entry) !== postmasterPid && parentPid !== postmasterPid) continue;
    ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]));
  }
  return ticks;
}

/** CPU spent between two samples by the processes alive at the second (one that ended meanwhile took its count with it). */
function ticksSpent(before: Map<number, number>, after: Map<number, number>): number {
  let spent = 0;
  for (const [pid, ticks] of after) spent += ticks - (before.get(pid) ?? 0);
  return spent;
}

const MILLISECONDS_PER_TICK = 10;

export async function measure(target: Target, options: { seconds: number; connections: number; postgresDataDirectory: string }): Promise<Sample> {
  const ticksBefore = postgresCpuTicks(options.postgresDataDirectory);
  const result = await autocannon({
    url: `${target.origin}${target.path}`,
    method: target.method,
    connections: options.connections,
    duration: options.seconds,
    headers: headersOf(target, target.cookie),
    ...(target.next
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => {
                const next = target.next?.();
                return { ...request, headers: headersOf(target, next?.cookie), body: next?.body ?? '' };
              },
            },
          ],
        }
      : {}),
  });
  const ticks = ticksSpent(ticksBefore, postgresCpuTicks(options.postgresDataDirectory));
  return {
    requestsPerSecond: result.requests.average,
    p50Milliseconds: result.latency.p50,
    p99Milliseconds: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    postgresCpuMillisecondsPerRequest: result.requests.total > 0 ? (ticks * MILLISECONDS_PER_TICK) / result.requests.total : 0,
  };
}

/**
 * SQL statements per request: pg_stat_statements (track = top, utility statements such as BEGIN
 * and COMMIT included) is reset, the request is sent `count` times one after another, and the
 * calls recorded for the measured database are added up. Each statement the server sends is one
 * round trip to PostgreSQL.
 */
export async function countRoundTrips(target: Target, statistics: pg.Client, databaseName: string, count = 20): Promise<number> {
  await statistics.query('select pg_stat_statements_reset()');
  for (let index = 0; index < count; index += 1) {
    const next = target.next?.();
    const response = await fetch(`${target.origin}${target.path}`, {
      method: target.method,
      headers: headersOf(target, next?.cookie ?? target.cookie),
      ...(next ? { body: next.body } : {}),
    });
    await response.arrayBuffer();
    if (response.status >= 300) throw new Error(`${target.method} ${target.path} answered ${response.status} while counting round trips`);
  }
  const result = await statistics.query<{ calls: string }>(
    'select coalesce(sum(calls), 0)::text as calls from pg_stat_statements s join pg_database d on d.oid = s.dbid where d.datname = $1',
    [databaseName],
  );
  return Number(result.rows[0]?.calls ?? 0) / count;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** "0.52 (0.48-0.55)": the median and the range over the rounds. */
export function ratioText(ratios: readonly number[]): string {
  return `${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`;
}

/** Prints rows as a Markdown table, so a run can be pasted into bench/README.md as it is. */
export function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}
