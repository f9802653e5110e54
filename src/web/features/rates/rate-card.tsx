import { lazy, Suspense, useState } from 'react';
import { formatInrForDisplay } from '#shared/money-core';
import { notify } from '../events/index.ts';
import { languageReady, translate, useTranslation } from '../../lib/i18n/i18n.ts';
import { useDisplayRates } from './api.ts';
import { InfoIcon, RefreshIcon } from './icons.tsx';

const VipRateTooltip = lazy(() => Promise.all([import('./vip-rate-tooltip.tsx'), languageReady('page')]).then(([module]) => module));

function RateFigure({ ratePaise, testId }: { ratePaise: bigint | undefined; testId: string }) {
  return (
    <p className="text-2xl font-bold tabular-nums text-slate-900" data-testid={testId}>
      {ratePaise === undefined ? '\u2026' : formatInrForDisplay(ratePaise)}
    </p>
  );
}

/**
 * Standard and VIP rates per 1 USDT with a Refresh Rates button. When the rates
 * cannot be loaded it shows the fallback rates under a Fallback badge (display only).
 */
export function RateCard({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  const { rates, query } = useDisplayRates();
  // The tooltip's code loads when the visitor reaches for the card, not with the page. Radix opens it on hover and focus;
  // taps on a touch screen are counted here, so that one made before the code is in still opens it.
  const [tooltipWanted, setTooltipWanted] = useState(false);
  const wantTooltip = () => setTooltipWanted(true);

  const refresh = async () => {
    // The toasts' messages are in the catalog's rest, which the landing page loads after its first render.
    const [result] = await Promise.all([query.refetch(), languageReady('page').catch(() => undefined)]);
    if (result.isSuccess) notify('success', translate('rates.updated'), { id: 'rates-refreshed' });
    else notify('error', translate('rates.refreshFailed'), { id: 'rates-refresh-failed' });
  };

  return (
    <section
      aria-labelledby="rate-card-title"
      className={`rounded-2xl border border-slate-200 bg-white p-5 shadow-sm ${className}`}
      onPointerEnter={wantTooltip}
      onFocus={wantTooltip}
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id="rate-card-title" className="flex items-center gap-2 text-lg font-semibold">
          {t('home.exchangeRates')}
          {rates?.fallback && (
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-800" title={t('home.fallbackTitle')}>
              {t('home.fallback')}
            </span>
          )}
        </h2>
        <button
          type="button"
          onClick={() => void refresh()}
          disabled={query.isFetching}
          className="inline-flex h-9 items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-slate-900 hover:bg-slate-50 disabled:opacity-60"
        >
          <RefreshIcon className={`size-4 ${query.isFetching ? 'animate-spin' : ''}`} />
          {t('home.refreshRates')}
        </button>
      </div>
      <div className="mt-4 grid grid-cols-2 gap-3">
        <div className="rounded-xl bg-slate-50 p-3">
          <p className="text-sm font-medium text-slate-600">{t('home.standardRate')}</p>
          <RateFigure ratePaise={rates?.normalRatePaise} testId="standard-rate" />
          <p className="text-xs text-slate-500">{t('home.perOneUsdt')}</p>
        </div>
        <VipRateCell ratePaise={rates?.vipRatePaise} tooltipWanted={tooltipWanted} onWantTooltip={wantTooltip} />
      </div>
    </section>
  );
}

/** The VIP rate with its info button; the tooltip's code comes once the visitor reaches for the card. */
function VipRateCell({ ratePaise, tooltipWanted, onWantTooltip }: { ratePaise: bigint | undefined; tooltipWanted: boolean; onWantTooltip: () => void }) {
  const { t } = useTranslation();
  const [taps, setTaps] = useState(0);
  const infoButton = (
    <button
      type="button"
      aria-label={t('home.aboutVipRate')}
      className="-m-0.5 rounded-full p-1 text-amber-700 hover:bg-amber-100"
      onPointerUp={(event) => {
        if (event.pointerType === 'touch') {
          onWantTooltip();
          setTaps((count) => count + 1);
        }
      }}
    >
      <InfoIcon className="size-4" />
    </button>
  );

  return (
    <div className="rounded-xl bg-amber-50 p-3">
      <p className="flex items-center gap-1 text-sm font-medium text-amber-800">
        {t('home.vipRate')}
        {tooltipWanted ? (
          <Suspense fallback={infoButton}>
            <VipRateTooltip taps={taps}>{infoButton}</VipRateTooltip>
          </Suspense>
        ) : (
          infoButton
        )}
      </p>
      <RateFigure ratePaise={ratePaise} testId="vip-rate" />
      <p className="text-xs text-slate-500">{t('home.perOneUsdt')}</p>
    </div>
  );
}
