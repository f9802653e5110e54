import { describe, expect, it } from 'vitest';
import { newRequestId } from '../../src/server/http/request-ids.ts';

describe('request ids', () => {
  it('are 12 hex digits, none repeated across many draws of the random bytes', () => {
    // 5,000 ids use the bytes of five draws; an id taken twice from one draw, or a draw not renewed, repeats one.
    const ids = Array.from({ length: 5_000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
