import { useId, type ReactElement, type ReactNode } from 'react';
import { cloneElement } from 'react';
import { Label } from './label.tsx';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

/** A labelled control with its help text and error, wired up for screen readers. */
export function FormField({
  label,
  error,
  help,
  children,
}: {
  label: ReactNode;
  error?: string | undefined;
  help?: ReactNode;
  children: ReactElement<Record<string, unknown>>;
}) {
  const id = useId();
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const describedBy = [help ? helpId : undefined, error ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {cloneElement(children, { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {help && (
        <p id={helpId} className="text-xs text-slate-500">
          {help}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-red-600">
          {localizeMessage(error)}
        </p>
      )}
    </div>
  );
}
