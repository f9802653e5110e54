import { describe, expect, it } from 'vitest';
import { LIMITS } from '#shared/limits';
import { PLANNED_LIMITS, planLimit } from '../../src/server/platform/pagination/keyset-statements.ts';

describe('the row counts prepared list statements are planned with', () => {
  it('holds every page the API allows in one of a few counts, the smallest that fits', () => {
    const planned = new Set<number>();
    for (let rows = 1; rows <= LIMITS.pageSizeMax + 1; rows += 1) {
      const limit = planLimit(rows);
      expect(limit).toBeGreaterThanOrEqual(rows);
      expect(PLANNED_LIMITS.filter((candidate) => candidate >= rows && candidate < limit)).toEqual([]);
      planned.add(limit);
    }
    expect([...planned]).toEqual([6, 11, 21, 51, 101]);
    // The web app's pages (5, 20 and 50 with the row that tells whether more follow) are read exactly.
    expect([planLimit(6), planLimit(21), planLimit(51)]).toEqual([6, 21, 51]);
  });

  it('treats a page beyond the largest allowed as a bug', () => {
    expect(() => planLimit(LIMITS.pageSizeMax + 2)).toThrow('a page of 102 rows is out of bounds');
    expect(() => planLimit(0)).toThrow('a page of 0 rows is out of bounds');
  });
});
