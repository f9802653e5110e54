import { describe, expect, it } from 'vitest';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminDashboardResponseSchema } from '#shared/contracts/admin';
import { decimalStringSchema } from '#shared/contracts/common';
import { assertPlainDataSchema, checkedResponseSerializerCompiler } from '../../src/server/http/response-serializer.ts';

const itemSchema = z.object({
  id: z.uuid(),
  amountUsdt: decimalStringSchema,
  status: z.enum(['pending', 'approved']),
  note: z.string().max(10).nullable(),
  tags: z.array(z.literal('new')).optional(),
});
const pageSchema = z.object({
  items: z.array(itemSchema).max(3),
  nextCursor: z.string().nullable(),
  owner: z.union([z.object({ kind: z.literal('user'), userId: z.uuid() }), z.object({ kind: z.literal('house') })]),
  count: z.number().int(),
});

const serializerFor = (schema: z.ZodType) =>
  checkedResponseSerializerCompiler({ schema, method: 'GET', url: '/test', httpStatus: '200' } as never) as (data: unknown) => string;

const validPage = {
  items: [
    { id: '5b0c4f4e-9d3a-4c55-8f8e-0a1b2c3d4e5f', amountUsdt: '10.500000', status: 'pending', note: null, tags: ['new'] },
    { id: '6b0c4f4e-9d3a-4c55-8f8e-0a1b2c3d4e5f', amountUsdt: '-1', status: 'approved', note: 'short' },
  ],
  nextCursor: null,
  owner: { kind: 'user', userId: '7b0c4f4e-9d3a-4c55-8f8e-0a1b2c3d4e5f' },
  count: 2,
};

function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('the response serializer', () => {
  it('sends what zod encode sends: unknown keys left out at every depth, the schema order kept', () => {
    const withExtras = {
      passwordHash: 'secret',
      ...validPage,
      items: validPage.items.map((item) => ({ internalNote: 'secret', ...item })),
      owner: { ...validPage.owner, email: 'secret@example.com' },
    };
    const sent = serializerFor(pageSchema)(withExtras);
    expect(sent).not.toContain('secret');
    expect(sent).toBe(JSON.stringify(z.encode(pageSchema, withExtras as never)));
    expect(JSON.parse(sent)).toEqual(validPage);
  });

  it('gives the dashboard the same text as encode', () => {
    const dashboard = {
      generatedAt: '2026-11-26T10:00:00.000Z',
      pendingDeposits: { count: 1, totalUsdt: '1.000000', oldestAt: null },
      pendingWithdrawals: { totalInr: '0.00', count: 0, totalUsdt: '0.000000', oldestAt: null },
      processingWithdrawals: { count: 0, totalUsdt: '0.000000', totalInr: '0.00', oldestAt: '2026-11-26T10:00:00.000Z' },
      pendingTransfers: { count: 0, totalUsdt: '0.000000', oldestAt: null },
      today: {
        date: '2026-11-26',
        paidWithdrawals: { count: 0, totalInr: '0.00', totalUsdt: '0.000000' },
        creditedDeposits: { count: 0, totalUsdt: '0.000000' },
      },
      customerBalancesUsdt: '1.000000',
      books: {
        customerBalancesUsdt: '1.000000',
        houseAccounts: [{ kind: 'deposits_received', balanceUsdt: '-1.000000' }],
        differenceUsdt: '0.000000',
        balanced: true,
      },
      openPayoutBatches: [],
      userCount: 3,
    };
    expect(serializerFor(adminDashboardResponseSchema)(dashboard)).toBe(JSON.stringify(z.encode(adminDashboardResponseSchema, dashboard as never)));
  });

  it.each([
    ['a wrong type', { ...validPage, count: '2' }],
    ['a number that is not whole', { ...validPage, count: 2.5 }],
    ['an amount that is not a decimal string', { ...validPage, items: [{ ...validPage.items[0], amountUsdt: '1e6' }] }],
    ['a value outside the enum', { ...validPage, items: [{ ...validPage.items[0], status: 'paid' }] }],
    ['a string over its limit', { ...validPage, items: [{ ...validPage.items[0], note: 'far too long a note' }] }],
    ['a list over its limit', { ...validPage, items: [validPage.items[0], validPage.items[0], validPage.items[0], validPage.items[0]] }],
    ['a missing field', { items: [], nextCursor: null, count: 0 }],
    ['no union member matching', { ...validPage, owner: { kind: 'bank' } }],
  ])('refuses %s with a response serialization error', (_name, data) => {
    const error = thrownBy(() => serializerFor(pageSchema)(data));
    expect(error).toBeInstanceOf(Error);
    expect(isResponseSerializationError(error as never)).toBe(true);
  });

  it('refuses at start a response schema that is not plain data, wherever the non-data part is', () => {
    const cases: z.ZodType[] = [
      z.object({ amount: z.string().transform(Number) }),
      z.object({ items: z.array(z.object({ status: z.string().default('pending') })) }),
      z.object({ owner: z.object({ id: z.string() }).nullable().optional().catch(null) }),
      z.object({ value: z.union([z.string(), z.string().pipe(z.uuid())]) }),
      z.object({ when: z.codec(z.iso.datetime(), z.date(), { decode: (text) => new Date(text), encode: (date) => date.toISOString() }) }),
      z.record(z.string(), z.number().prefault(1)),
    ];
    for (const schema of cases) expect(() => assertPlainDataSchema(schema)).toThrow(/must be plain data/);
    expect(() => serializerFor(cases[0] as z.ZodType)).toThrow(/must be plain data/);
    expect(() => assertPlainDataSchema(pageSchema)).not.toThrow();
    expect(() => assertPlainDataSchema(adminDashboardResponseSchema)).not.toThrow();
  });
});
