import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { argon2ThreadNiceness } from '../../src/server/features/auth/argon2-workers.ts';
import { hashSecret, verifySecret } from '../../src/server/features/auth/passwords.ts';

/** The niceness of every thread of this process, from /proc (field 19 of each thread's stat). */
function threadNiceness(): Map<number, number> {
  const niceness = new Map<number, number>();
  for (const threadId of fs.readdirSync('/proc/self/task')) {
    const stat = fs.readFileSync(`/proc/self/task/${threadId}/stat`, 'utf8');
    niceness.set(Number(threadId), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return niceness;
}

describe('argon2 on threads of its own', () => {
  it('hashes and verifies: the right secret matches, a wrong one and an unreadable hash do not', async () => {
    const stored = await hashSecret('correct horse battery staple');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifySecret(stored, 'correct horse battery staple')).toBe(true);
    expect(await verifySecret(stored, 'correct horse battery stapler')).toBe(false);
    expect(await verifySecret('not an argon2 hash', 'correct horse battery staple')).toBe(false);
  });

  it('answers many checks sent at once, more than there are threads', async () => {
    const stored = await hashSecret('1234');
    const answers = await Promise.all(Array.from({ length: 9 }, (_, index) => verifySecret(stored, index % 3 === 0 ? '1234' : '4321')));
    expect(answers).toEqual([true, false, false, true, false, false, true, false, false]);
  });

  it('runs at a lower CPU priority than the event loop, so a burst of checks cannot take its CPU, whatever niceness the process was started with', async () => {
    await verifySecret(await hashSecret('1234'), '1234');
    const after = threadNiceness();
    // The suite may itself run under `nice`: the threads are judged against the process's own niceness.
    const processNiceness = after.get(process.pid);
    expect(processNiceness).toBeDefined();
    const base = processNiceness ?? 0;
    const argon2Niceness = argon2ThreadNiceness(base);
    if (base < 19) expect(argon2Niceness).toBeGreaterThan(base);
    const lowered = [...after].filter(([, niceness]) => niceness === argon2Niceness);
    expect(lowered.length).toBeGreaterThanOrEqual(1);
    // Only argon2's threads: every other thread of the process keeps the process's priority.
    expect([...after].filter(([, niceness]) => niceness !== base && niceness !== argon2Niceness)).toEqual([]);
  });

  it('goes nicer than the process by the same step, up to the lowest priority there is', () => {
    expect(argon2ThreadNiceness(0)).toBe(10);
    expect(argon2ThreadNiceness(5)).toBe(15);
    expect(argon2ThreadNiceness(15)).toBe(19);
    expect(argon2ThreadNiceness(19)).toBe(19);
  });
});
