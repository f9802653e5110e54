import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/utils.ts';

export function Alert({ className, variant = 'default', ...props }: HTMLAttributes<HTMLDivElement> & { variant?: 'default' | 'destructive' | 'info' }) {
  return (
    <div
      role={variant === 'destructive' ? 'alert' : 'status'}
      className={cn(
        'rounded-lg border px-4 py-3 text-sm',
        variant === 'destructive' && 'border-red-200 bg-red-50 text-red-800',
        variant === 'info' && 'border-sky-200 bg-sky-50 text-sky-900',
        variant === 'default' && 'border-slate-200 bg-slate-50 text-slate-800',
        className,
      )}
      {...props}
    />
  );
}
