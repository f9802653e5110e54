import { Tooltip } from 'radix-ui';
import { useRef, useState, type ReactElement } from 'react';
import { useTranslation } from '../../lib/i18n/i18n.ts';

export const VIP_RATE_TOOLTIP_DELAY_MILLISECONDS = 700;

/**
 * Loaded on demand by the rate card (Radix Tooltip brings a positioning engine the first visit does not need).
 * Radix opens a tooltip on hover and keyboard focus only; on a touch screen each tap on the button,
 * counted by the rate card (`taps`, also those made before this code was in), opens or closes it.
 */
export default function VipRateTooltip({ children, taps }: { children: ReactElement; taps: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [tapsSeen, setTapsSeen] = useState(0);
  const trigger = useRef<HTMLButtonElement>(null);
  const touching = useRef(false);
  if (taps !== tapsSeen) {
    // A new tap: React's way of adjusting state to a changed prop, during the render.
    setTapsSeen(taps);
    setOpen(!open);
  }

  // Radix closes a tooltip on a press of its trigger, on leaving it and on its click; after a touch, taps toggle it instead.
  const keepOnTouch = (event: { pointerType: string; preventDefault(): void }) => {
    if (event.pointerType === 'touch') event.preventDefault();
  };

  return (
    <Tooltip.Provider delayDuration={VIP_RATE_TOOLTIP_DELAY_MILLISECONDS}>
      <Tooltip.Root open={open} onOpenChange={setOpen}>
        <Tooltip.Trigger
          asChild
          ref={trigger}
          onPointerDown={(event) => {
            touching.current = event.pointerType === 'touch';
            keepOnTouch(event);
          }}
          onPointerLeave={keepOnTouch}
          onClick={(event) => {
            // The click that follows a tap: Radix closes on it, the rate card has counted the tap.
            if (touching.current) event.preventDefault();
          }}
        >
          {children}
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content
            sideOffset={6}
            className="z-50 max-w-60 rounded-lg bg-slate-900 px-3 py-2 text-xs text-white shadow-lg"
            onPointerDownOutside={(event) => {
              // A tap on the button itself is counted by the rate card; a tap anywhere else closes the tooltip.
              if (trigger.current?.contains(event.target as Node)) event.preventDefault();
            }}
          >
            {t('rates.vipRateTooltip')}
            <Tooltip.Arrow className="fill-slate-900" />
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  );
}
