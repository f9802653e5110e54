import { describe, expect, it } from 'vitest';
import { concurrencyLimit } from '../../src/server/concurrency-limit.ts';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => undefined as void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('concurrencyLimit', () => {
  it('runs at most the limit at once and starts the waiting work first come first served', async () => {
    const run = concurrencyLimit(2);
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    let running = 0;
    let mostAtOnce = 0;
    const results = gates.map((gate, index) =>
      run(async () => {
        started.push(index);
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        await gate.promise;
        running -= 1;
        return index * 10;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    gates[1]?.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(results)).toEqual([0, 10, 20, 30, 40]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(mostAtOnce).toBe(2);
  });

  it('frees the slot when the work fails', async () => {
    const run = concurrencyLimit(1);
    await expect(run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await run(async () => 'next')).toBe('next');
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => concurrencyLimit(0)).toThrow('positive integer');
  });
});
