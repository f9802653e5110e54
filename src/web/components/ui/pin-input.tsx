import type { InputHTMLAttributes } from 'react';
import { sanitizePinInput } from '../../../shared/contracts/pin.ts';
import { cn } from '../../lib/utils.ts';
import { Input } from './input.tsx';

/** A 4-digit PIN box: keeps digits only, at most four, and shows the numeric keypad on phones. */
export function PinInput({
  value,
  onValueChange,
  className,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & { value: string; onValueChange: (value: string) => void }) {
  return (
    <Input
      type="password"
      inputMode="numeric"
      autoComplete="off"
      maxLength={4}
      pattern="[0-9]*"
      value={value}
      onChange={(event) => onValueChange(sanitizePinInput(event.target.value))}
      className={cn('text-center text-2xl tracking-[0.75em]', className)}
      {...props}
    />
  );
}
