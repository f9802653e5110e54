import { tdsPercentToWire, TDS_REPORT_MAX_ROWS } from '#shared/contracts/withdrawal-rules';
import { inrPaiseToWire } from '#shared/money';
import type { Database } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { csvCell } from '../../platform/csv.ts';
import * as withdrawalRepository from './repository.ts';

const TDS_REPORT_COLUMNS = ['PAN', 'Name', 'Email', 'Withdrawal reference', 'Gross INR', 'TDS INR', 'Net INR', 'TDS %', 'Date (IST)', 'Status'];

/**
 * The TDS (section 194S) report for the quarterly return: every withdrawal
 * with TDS withheld that was not rejected, made from `from` to `to` inclusive
 * (India dates), oldest first, formula-safe. The export is audited.
 */
export async function tdsReportCsv(
  db: Database,
  actor: { adminUserId: string; ipAddress: string },
  range: { from: string; to: string },
): Promise<{ csv: string; rows: number; truncated: boolean }> {
  return db.transaction(async (transaction) => {
    const rows = await withdrawalRepository.listTdsWithdrawals(transaction, range, TDS_REPORT_MAX_ROWS + 1);
    const truncated = rows.length > TDS_REPORT_MAX_ROWS;
    const shown = rows.slice(0, TDS_REPORT_MAX_ROWS);
    const lines = [TDS_REPORT_COLUMNS.map(csvCell).join(',')];
    for (const row of shown) {
      lines.push(
        [
          row.pan ?? '',
          row.name,
          row.email,
          row.withdrawalId,
          inrPaiseToWire(row.amountInrPaise),
          inrPaiseToWire(row.tdsInrPaise),
          inrPaiseToWire(row.amountInrPaise - row.tdsInrPaise),
          tdsPercentToWire(row.tdsBasisPoints),
          row.indiaDate,
          row.status,
        ]
          .map(csvCell)
          .join(','),
      );
    }
    await recordAudit(transaction, {
      actorUserId: actor.adminUserId,
      action: 'reports.tds_export',
      targetType: 'report',
      targetId: `tds:${range.from}:${range.to}`,
      after: { rows: shown.length },
      ipAddress: actor.ipAddress,
    });
    return { csv: `${lines.join('\r\n')}\r\n`, rows: shown.length, truncated };
  });
}
