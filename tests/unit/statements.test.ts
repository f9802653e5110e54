import { describe, expect, it } from 'vitest';
import { daysCovered, indiaDateToday, STATEMENT_LIMITS, STATEMENT_MESSAGES, statementQuerySchema, statementUrl } from '#shared/contracts/statements';
import { formatUsdtIndian } from '#shared/money';
import { loadConfig } from '../../src/server/env.ts';
import { STATEMENT_LABELS, statementDateTime } from '../../src/server/features/statements/labels.ts';
import { renderStatementPdf } from '../../src/server/features/statements/pdf.ts';
import { buildStatement } from '../../src/server/features/statements/statement.ts';
import { configurationProblemsOf as problemsOf } from '../fixtures/configuration.ts';

const messagesOf = (query: Record<string, string>) => {
  const parsed = statementQuerySchema.safeParse(query);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
};

describe('the statement contract', () => {
  it('takes India dates: today is the date in India, and a period counts both of its ends', () => {
    // 20:00 UTC on 27 November is 01:30 on 28 November in India.
    expect(indiaDateToday(0, Date.parse('2026-11-27T20:00:00Z'))).toBe('2026-11-28');
    expect(indiaDateToday(-1, Date.parse('2026-11-27T10:00:00Z'))).toBe('2026-11-26');
    expect(daysCovered('2026-11-27', '2026-11-27')).toBe(1);
    expect(daysCovered('2024-01-01', '2024-12-31')).toBe(366);
  });

  it('accepts a period of up to 366 days ending today at the latest, as PDF or CSV', () => {
    const to = indiaDateToday();
    expect(messagesOf({ from: indiaDateToday(-(STATEMENT_LIMITS.maxDays - 1)), to, format: 'pdf' })).toEqual([]);
    expect(messagesOf({ from: to, to, format: 'csv' })).toEqual([]);
    expect(messagesOf({ from: indiaDateToday(-STATEMENT_LIMITS.maxDays), to, format: 'pdf' })).toEqual([STATEMENT_MESSAGES.tooLong]);
    expect(messagesOf({ from: to, to: indiaDateToday(1), format: 'pdf' })).toEqual([STATEMENT_MESSAGES.future]);
    expect(messagesOf({ from: indiaDateToday(-1), to: indiaDateToday(-2), format: 'pdf' })).toEqual([STATEMENT_MESSAGES.order]);
    expect(messagesOf({ from: '2025-13-01', to, format: 'pdf' })).toEqual([STATEMENT_MESSAGES.invalidDate]);
    expect(messagesOf({ from: to, to, format: 'docx' })).toEqual([STATEMENT_MESSAGES.format]);
    expect(statementUrl({ from: '2026-11-01', to: '2026-11-27', format: 'pdf' })).toBe('/api/statement?from=2026-11-01&to=2026-11-27&format=pdf');
  });
});

describe('what a statement shows', () => {
  it('groups USDT in the Indian way with all six decimals', () => {
    expect(formatUsdtIndian(0n)).toBe('0.000000');
    expect(formatUsdtIndian(1_500_000_000n)).toBe('1,500.000000');
    expect(formatUsdtIndian(12_345_678_901_234_567n)).toBe('12,34,56,78,901.234567');
    expect(formatUsdtIndian(-100_000_500_000n)).toBe('-1,00,000.500000');
  });

  it('shows times in India time, with Hindi month names for a Hindi statement', () => {
    const moment = new Date('2026-11-27T18:45:00Z');
    expect(statementDateTime('en', moment)).toBe('28 Nov 2026, 00:15');
    expect(statementDateTime('hi', moment)).toMatch(/^28 नव.* 2026, 00:15$/);
  });

  it('has every label in English and Hindi, and none of the Hindi ones left in English', () => {
    const english = STATEMENT_LABELS.en;
    const hindi = STATEMENT_LABELS.hi;
    expect(Object.keys(hindi.reasons).sort()).toEqual(Object.keys(english.reasons).sort());
    for (const key of ['title', 'openingBalance', 'closingBalance', 'description', 'transactionHash', 'noMovements'] as const) {
      expect(hindi[key]).not.toBe(english[key]);
      expect(hindi[key]).toMatch(/[\u0900-\u097f]/);
    }
    expect(hindi.page(2, 9)).toBe('पृष्ठ 2 / 9');
  });

  it("takes the operator's name from OPERATOR_NAME, Rupeedesk when unset", () => {
    expect(loadConfig({}).operatorName).toBe('Rupeedesk');
    expect(loadConfig({ OPERATOR_NAME: ' Rupeedesk Technologies Private Limited ' }).operatorName).toBe('Rupeedesk Technologies Private Limited');
    expect(problemsOf({ OPERATOR_NAME: 'x'.repeat(121) })).toEqual([
      `Invalid configuration: OPERATOR_NAME must be at most 120 characters on one line (got "${'x'.repeat(121)}")`,
    ]);
  });
});

describe('drawing a long statement', () => {
  it('lets the event loop take turns while it draws, so other requests of the process are not held up', async () => {
    const lines = 200;
    const rows = Array.from({ length: lines }, (_, index) => ({
      ledgerTransferId: BigInt(index + 1),
      createdAt: new Date(Date.parse('2026-11-01T05:00:00Z') + index * 60_000),
      reason: 'deposit_credit' as const,
      signedUsdtMicros: 1_000_000n,
      referenceId: null,
      withdrawalReference: null,
      utr: null,
      withdrawalInrPaise: null,
      withdrawalTdsInrPaise: null,
      network: 'TRC20',
      transactionHash: 'a'.repeat(64),
      counterpartyEmail: null,
      referralLevel: null,
    }));
    const statement = buildStatement(
      {
        operatorName: 'Rupeedesk',
        holder: { name: 'Asha Rao', phone: '+919876543210', language: 'en' },
        from: '2026-11-01',
        to: '2026-11-30',
        generatedAt: new Date(),
        openingUsdtMicros: 0n,
        closingUsdtMicros: BigInt(lines) * 1_000_000n,
        rows,
      },
      STATEMENT_LABELS.en,
    );
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const pdf = await renderStatementPdf(statement, STATEMENT_LABELS.en);
    ticking = false;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(turns).toBeGreaterThanOrEqual(lines / 20 - 1);
  });

  it('refuses to hand out lines that do not lead to the closing balance', () => {
    const parts = {
      operatorName: 'Rupeedesk',
      holder: { name: 'Asha Rao', phone: '+919876543210', language: 'en' as const },
      from: '2026-11-01',
      to: '2026-11-30',
      generatedAt: new Date(),
      openingUsdtMicros: 5n,
      closingUsdtMicros: 6n,
      rows: [],
    };
    expect(() => buildStatement(parts, STATEMENT_LABELS.en)).toThrow(/lead from 5 to 5 micro-USDT, but the ledger's closing balance is 6/);
  });
});
