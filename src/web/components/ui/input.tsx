import type { InputHTMLAttributes, Ref } from 'react';
import { cn } from '../../lib/utils.ts';

export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  return (
    <input
      className={cn(
        'flex h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base text-slate-900 placeholder:text-slate-400 disabled:cursor-not-allowed disabled:opacity-60 aria-[invalid=true]:border-red-500 read-only:bg-slate-50',
        className,
      )}
      {...props}
    />
  );
}
