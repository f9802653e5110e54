import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { DatabasePoolBusyError } from '../../src/server/db/client.ts';
import { isDatabaseUnavailableError } from '../../src/server/db/database-errors.ts';

function withCode(code: string, message = 'failed'): Error {
  return Object.assign(new Error(message), { code });
}

describe('isDatabaseUnavailableError', () => {
  it('recognises refused connections, pool timeouts, broken connections and a server going away', () => {
    expect(isDatabaseUnavailableError(withCode('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailableError(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'connect failed'))).toBe(true);
    // The embedded server's Unix-domain socket while the server is down.
    expect(isDatabaseUnavailableError(Object.assign(withCode('ENOENT', 'connect ENOENT /data/postgres/.s.PGSQL.5432'), { syscall: 'connect' }))).toBe(true);
    expect(isDatabaseUnavailableError(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailableError(new Error('Connection terminated unexpectedly'))).toBe(true);
    // The pool's refusal beyond its queue of waiters (db/client.ts).
    expect(isDatabaseUnavailableError(new DatabasePoolBusyError())).toBe(true);
    for (const state of ['08000', '08003', '08006', '08001', '08P01', '57P01', '57P02', '57P03']) {
      expect(isDatabaseUnavailableError(withCode(state)), state).toBe(true);
    }
  });

  it('looks through the errors that wrap the driver error', () => {
    const wrapped = new DrizzleQueryError('select 1', [], withCode('57P01', 'terminating connection due to administrator command'));
    expect(isDatabaseUnavailableError(wrapped)).toBe(true);
    expect(isDatabaseUnavailableError(new Error('outer', { cause: new Error('middle', { cause: withCode('ECONNRESET') }) }))).toBe(true);
  });

  it('leaves every other failure alone', () => {
    expect(isDatabaseUnavailableError(withCode('23505', 'duplicate key'))).toBe(false);
    expect(isDatabaseUnavailableError(withCode('22021'))).toBe(false);
    // A missing file is our bug unless it is the database's socket.
    expect(isDatabaseUnavailableError(Object.assign(withCode('ENOENT'), { syscall: 'open' }))).toBe(false);
    expect(isDatabaseUnavailableError(withCode('57014', 'canceling statement due to statement timeout'))).toBe(false);
    expect(isDatabaseUnavailableError(new DrizzleQueryError('select 1', [], withCode('40001')))).toBe(false);
    expect(isDatabaseUnavailableError(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailableError(undefined)).toBe(false);
    expect(isDatabaseUnavailableError('ECONNREFUSED')).toBe(false);
  });
});
