import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { tdsInrPaiseFor, withdrawalLimitsResponseSchema, type WithdrawalLimits } from '#shared/contracts/withdrawal-rules';
import { formatInrForDisplay, inrPaiseFromWire, parseDecimal } from '#shared/money';
import { Alert } from '../../components/ui/alert.tsx';
import { apiRequest } from '../../lib/api.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';
import { displayInr, displayUsdt } from './format.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';

/**
 * Withdrawal limits and TDS on the customer's side (docs/decisions/018): what
 * is left today and this month before anything is typed, and the gross / TDS /
 * net breakdown wherever a withdrawal's rupees are shown.
 */

/** Under the wallet prefix, so a live wallet event (a withdrawal made or rejected) refreshes what is left. */
const WITHDRAWAL_LIMITS_KEY = [...QUERY_KEYS.wallet, 'withdrawal-limits'];

export function useWithdrawalLimits() {
  return useQuery({
    queryKey: WITHDRAWAL_LIMITS_KEY,
    queryFn: ({ signal }) => apiRequest('/api/withdrawals/limits', withdrawalLimitsResponseSchema, { signal }),
  });
}

/** The TDS rate in basis points from its wire form ("1.00" -> 100n). */
export function tdsBasisPointsOf(limits: WithdrawalLimits | undefined): bigint {
  if (!limits) return 0n;
  const parsed = parseDecimal(limits.tdsPercent, 2);
  return parsed.ok ? parsed.value : 0n;
}

export interface InrBreakdown {
  grossInrPaise: bigint;
  tdsInrPaise: bigint;
  netInrPaise: bigint;
}

/** The same formula as the server (shared code), for the preview and the PIN dialog. */
export function breakdownOf(grossInrPaise: bigint, tdsBasisPoints: bigint): InrBreakdown {
  const tdsInrPaise = tdsInrPaiseFor(grossInrPaise, tdsBasisPoints);
  return { grossInrPaise, tdsInrPaise, netInrPaise: grossInrPaise - tdsInrPaise };
}

/** A line for the PIN dialog: "₹830.00 less TDS ₹8.30: you receive ₹821.70". */
export function breakdownSentence(breakdown: InrBreakdown, tdsPercent: string): string {
  return t('withdraw.breakdownSentence', {
    gross: formatInrForDisplay(breakdown.grossInrPaise),
    percent: tdsPercent,
    tds: formatInrForDisplay(breakdown.tdsInrPaise),
    net: formatInrForDisplay(breakdown.netInrPaise),
  });
}

/** Gross, TDS and net as rows of a definition list; shown only while TDS applies to the withdrawal. */
export function TdsBreakdownRows({
  withdrawal,
  className = 'flex justify-between gap-4 py-2',
}: {
  withdrawal: { amountInr: string; tdsInr: string; netInr: string; tdsPercent: string };
  className?: string;
}) {
  if (inrPaiseFromWire(withdrawal.tdsInr) === 0n && withdrawal.tdsPercent === '0.00') return null;
  return (
    <>
      <div className={className}>
        <dt className="text-slate-500">{t('withdraw.grossAmount')}</dt>
        <dd className="text-right font-medium" data-testid="tds-gross">
          {displayInr(withdrawal.amountInr)}
        </dd>
      </div>
      <div className={className}>
        <dt className="text-slate-500">{t('withdraw.tdsRow', { percent: withdrawal.tdsPercent })}</dt>
        <dd className="text-right font-medium" data-testid="tds-amount">
          − {displayInr(withdrawal.tdsInr)}
        </dd>
      </div>
      <div className={className}>
        <dt className="text-slate-500">{t('withdraw.netPaid')}</dt>
        <dd className="text-right font-semibold" data-testid="tds-net">
          {displayInr(withdrawal.netInr)}
        </dd>
      </div>
    </>
  );
}

function periodLine(label: string, period: WithdrawalLimits['daily']): string | undefined {
  if (period.limitUsdt === null || period.leftUsdt === null) return undefined;
  return t('withdraw.periodLine', { period: label, left: displayUsdt(period.leftUsdt), limit: displayUsdt(period.limitUsdt) });
}

/** What the customer may still withdraw, shown before anything is typed; nothing when no limit is set. */
export function WithdrawalLimitsNote({ limits }: { limits: WithdrawalLimits }) {
  const lines = [
    periodLine(t('withdraw.today'), limits.daily),
    periodLine(t('withdraw.thisMonth'), limits.monthly),
    limits.maxUsdt === null ? undefined : t('withdraw.perWithdrawal', { minimum: displayUsdt(limits.minUsdt), maximum: displayUsdt(limits.maxUsdt) }),
  ].filter((line): line is string => line !== undefined);
  return (
    <>
      {limits.panRequired && (
        <Alert variant="destructive" data-testid="pan-required">
          {t('withdraw.panRequiredBefore', { percent: limits.tdsPercent })}{' '}
          <Link to="/profile" className="font-semibold underline">
            {t('withdraw.panRequiredLink')}
          </Link>{' '}
          {t('withdraw.panRequiredAfter')}
        </Alert>
      )}
      {lines.length > 0 && (
        <div className="rounded-xl border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700" data-testid="withdrawal-limits">
          <p className="font-medium">{t('withdraw.limitsTitle')}</p>
          <ul className="mt-1 flex flex-col gap-0.5">
            {lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}
