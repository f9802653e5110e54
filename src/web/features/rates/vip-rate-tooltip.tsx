import { Tooltip } from 'radix-ui';
import type { ReactElement } from 'react';

export const VIP_RATE_TOOLTIP = 'VIP members and transactions \u20b9100,000+ get this premium rate';
export const VIP_RATE_TOOLTIP_DELAY_MILLISECONDS = 700;

/** Loaded on demand by the rate card (Radix Tooltip brings a positioning engine the first visit does not need). */
export default function VipRateTooltip({ children }: { children: ReactElement }) {
  return (
    <Tooltip.Provider delayDuration={VIP_RATE_TOOLTIP_DELAY_MILLISECONDS}>
      <Tooltip.Root>
        <Tooltip.Trigger asChild>{children}</Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content sideOffset={6} className="z-50 max-w-60 rounded-lg bg-slate-900 px-3 py-2 text-xs text-white shadow-lg">
            {VIP_RATE_TOOLTIP}
            <Tooltip.Arrow className="fill-slate-900" />
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  );
}
