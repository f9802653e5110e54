import { Share2 } from 'lucide-react';
import { toast } from 'sonner';
import { Button, type ButtonProps } from './button.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

/**
 * Opens the phone's share sheet (Web Share API) with `text` and `url`; where the browser has no
 * share sheet (most desktops), copies the link instead and says so.
 */
export function ShareButton({
  title,
  text,
  url,
  copiedMessage,
  children,
  ...props
}: Omit<ButtonProps, 'onClick'> & { title: string; text: string; url: string; copiedMessage: string }) {
  const share = async () => {
    const data = { title, text, url };
    if (typeof navigator.share === 'function' && (typeof navigator.canShare !== 'function' || navigator.canShare(data))) {
      try {
        await navigator.share(data);
        return;
      } catch (error) {
        // Closing the share sheet is the customer's choice, not a failure.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      toast.success(copiedMessage);
    } catch {
      toast.error(t('common.shareFailed'));
    }
  };

  return (
    <Button variant="outline" onClick={() => void share()} {...props}>
      <Share2 aria-hidden />
      {children}
    </Button>
  );
}
