import { useSyncExternalStore, type CSSProperties } from 'react';
import { Toaster } from 'sonner';
import { useTranslation } from '../../lib/i18n/i18n.ts';
import { textOrEnglish } from '../../lib/i18n/text-or-english.ts';

/** Below Tailwind's `md`: a phone, where toasts sit at the bottom, above the bottom navigation. */
const PHONE_QUERY = '(max-width: 767px)';

/** Sonner's rich colours with text dark enough for WCAG AA (4.5:1) on their pale backgrounds; its own greens and reds fall short. */
const READABLE_RICH_COLOURS = {
  '--success-text': '#065f46',
  '--error-text': '#b91c1c',
  '--info-text': '#1d4ed8',
  '--warning-text': '#92400e',
} as CSSProperties;

function subscribeToWidth(onChange: () => void): () => void {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * The one toast area of the app: at most 3 visible, 5 s, F8 to focus. Toasts are
 * for successes and live events only (failures are shown inline, once). On a
 * phone they sit at the bottom, above the navigation bar, where they cover no
 * page title; on wider screens top right, below the two-row page header.
 */
export default function AppToaster() {
  const phone = useSyncExternalStore(subscribeToWidth, () => window.matchMedia(PHONE_QUERY).matches);
  // Rendered again when the language changes; it may mount on a public page before any catalog but the inlined English.
  useTranslation();
  return (
    <Toaster
      position={phone ? 'bottom-center' : 'top-right'}
      offset={{ top: 112, bottom: 80 }}
      mobileOffset={{ top: 112, bottom: 80 }}
      visibleToasts={3}
      hotkey={['F8']}
      duration={5000}
      richColors
      style={READABLE_RICH_COLOURS}
      closeButton
      containerAriaLabel={textOrEnglish('shell.toasts', 'Notifications')}
      toastOptions={{ closeButtonAriaLabel: textOrEnglish('shell.closeToast', 'Close toast') }}
    />
  );
}
