import { inrPaiseToWire, usdtMicrosToWire } from '#shared/money';
import { csvCell } from '../../platform/csv.ts';
import type { StatementLabels } from './labels.ts';
import type { Statement } from './statement.ts';

const INDIA_OFFSET_MILLISECONDS = 330 * 60_000;

/** "2026-11-27 14:30:05", the moment in India time, as a spreadsheet reads a date. */
function indiaTimestamp(date: Date): string {
  return new Date(date.getTime() + INDIA_OFFSET_MILLISECONDS).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The statement as CSV: the opening balance, one row per movement, the closing balance. Amounts are plain
 * decimals (USDT to 6 places, INR to the paisa) so that a spreadsheet reads them as numbers; every cell
 * goes through the formula-safe csvCell. A byte order mark lets spreadsheets read the Hindi labels as UTF-8.
 */
export function renderStatementCsv(statement: Statement, labels: StatementLabels): string {
  const header = [
    labels.date,
    labels.description,
    labels.reference,
    labels.utr,
    `${labels.inrToBank} (INR)`,
    `${labels.tds} (INR)`,
    labels.network,
    labels.transactionHash,
    labels.counterparty,
    labels.credit,
    labels.debit,
    labels.balance,
  ];
  const balanceRow = (label: string, at: string, amountUsdtMicros: bigint) => [
    at,
    label,
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    usdtMicrosToWire(amountUsdtMicros),
  ];
  const rows = [
    header,
    balanceRow(labels.openingBalance, `${statement.from} 00:00:00`, statement.openingUsdtMicros),
    ...statement.lines.map((line) => [
      indiaTimestamp(line.createdAt),
      line.description,
      line.reference ?? '',
      line.utr ?? '',
      line.inrToBankPaise === null ? '' : inrPaiseToWire(line.inrToBankPaise),
      line.tdsInrPaise === null ? '' : inrPaiseToWire(line.tdsInrPaise),
      line.network ?? '',
      line.transactionHash ?? '',
      line.counterparty ?? '',
      line.signedUsdtMicros > 0n ? usdtMicrosToWire(line.signedUsdtMicros) : '',
      line.signedUsdtMicros < 0n ? usdtMicrosToWire(-line.signedUsdtMicros) : '',
      usdtMicrosToWire(line.balanceUsdtMicros),
    ]),
    balanceRow(labels.closingBalance, `${statement.to} 23:59:59`, statement.closingUsdtMicros),
  ];
  return `\ufeff${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
