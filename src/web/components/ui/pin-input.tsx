import type { InputHTMLAttributes } from 'react';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import { sanitizePinInput } from '#shared/contracts/pin';
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

/** A PIN box bound to a react-hook-form field. */
export function FormPinInput<Values extends FieldValues>({
  control,
  name,
  ...props
}: Omit<Parameters<typeof PinInput>[0], 'value' | 'onValueChange'> & { control: Control<Values>; name: Path<Values> }) {
  const { field } = useController({ control, name });
  return <PinInput value={field.value as string} onValueChange={field.onChange} onBlur={field.onBlur} {...props} />;
}
