import { Loader2 } from 'lucide-react';
import { cn } from '../../lib/utils.ts';

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return <Loader2 aria-label={label} role="status" className={cn('size-5 animate-spin text-brand-700', className)} />;
}

export function FullPageLoader({ text = 'Loading...' }: { text?: string }) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-3 text-slate-600">
      <Spinner className="size-8" label={text} />
      <p>{text}</p>
    </div>
  );
}
