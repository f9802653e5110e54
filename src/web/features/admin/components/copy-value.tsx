import { CopyButton } from '../../../components/ui/copy-button.tsx';
import { cn } from '../../../lib/utils.ts';

/** A value an operator types elsewhere (account number, IFSC, UPI id, hash) with a button that copies it. */
export function CopyValue({ value, what, className, mono = true }: { value: string; what: string; className?: string; mono?: boolean }) {
  return (
    <span className={cn('inline-flex max-w-full items-center gap-1', className)}>
      <span className={cn('min-w-0 break-all', mono && 'font-mono')}>{value}</span>
      <CopyButton text={value} label={`Copy ${what}`} successMessage={`${what} copied`} className="size-7 shrink-0 [&_svg]:size-3.5" variant="ghost" />
    </span>
  );
}
