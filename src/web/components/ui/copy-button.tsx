import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Button, type ButtonProps } from './button.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

const CONFIRMATION_MS = 2000;

/** Copies `text` to the clipboard, confirms with a toast and a check mark for 2 seconds. */
export function CopyButton({
  text,
  label,
  successMessage,
  ...props
}: Omit<ButtonProps, 'onClick' | 'children'> & { text: string; label: string; successMessage: string }) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), CONFIRMATION_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      toast.success(successMessage);
    } catch {
      toast.error(t('common.copyFailed'));
    }
  };

  return (
    <Button variant="outline" size="icon" aria-label={label} title={label} onClick={() => void copy()} {...props}>
      {copied ? <Check className="text-emerald-600" /> : <Copy />}
    </Button>
  );
}
