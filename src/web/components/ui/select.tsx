import { ChevronDown } from 'lucide-react';
import type { SelectHTMLAttributes } from 'react';
import { cn } from '../../lib/utils.ts';

/** A native select: keyboard and screen-reader friendly everywhere, and the phone's own picker on mobile. */
export function Select({ className, children, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <div className="relative">
      <select
        className={cn(
          'flex h-11 w-full appearance-none rounded-lg border border-slate-300 bg-white pl-3 pr-10 text-base text-slate-900 disabled:cursor-not-allowed disabled:opacity-60 aria-[invalid=true]:border-red-500',
          className,
        )}
        {...props}
      >
        {children}
      </select>
      <ChevronDown className="pointer-events-none absolute right-3 top-1/2 size-4 -translate-y-1/2 text-slate-500" aria-hidden />
    </div>
  );
}
