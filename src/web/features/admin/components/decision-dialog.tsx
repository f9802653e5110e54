import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../../components/ui/dialog.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';

export interface NoteField {
  label: string;
  help?: string;
  maxLength: number;
  multiline: boolean;
  /** An error message for the typed text, or undefined when it is acceptable. */
  validate: (text: string) => string | undefined;
}

/**
 * The confirmation before an approval or rejection, with an optional note:
 * the rejection reason the customer will see, or the bank payout reference.
 * `serverError` is the server's refusal of the note (for example too long), shown under the field.
 */
export function DecisionDialog({
  title,
  description,
  confirmLabel,
  destructive,
  field,
  busy,
  serverError,
  onCancel,
  onConfirm,
  children,
}: {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  destructive: boolean;
  field?: NoteField | undefined;
  busy: boolean;
  serverError?: string | undefined;
  onCancel: () => void;
  onConfirm: (note: string) => void;
  children?: ReactNode;
}) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();

  const confirm = () => {
    const problem = field?.validate(note);
    setError(problem);
    if (!problem) onConfirm(note);
  };

  const control = field?.multiline ? (
    <Textarea value={note} maxLength={field.maxLength} onChange={(event) => setNote(event.target.value)} disabled={busy} rows={3} />
  ) : (
    <Input
      value={note}
      maxLength={field?.maxLength}
      autoComplete="off"
      onChange={(event) => setNote(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          confirm();
        }
      }}
      disabled={busy}
    />
  );

  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && !busy && onCancel()}
      title={title}
      description={description}
      confirmLabel={busy ? 'Please wait...' : confirmLabel}
      destructive={destructive}
      busy={busy}
      onConfirm={confirm}
    >
      <div className="flex flex-col gap-4">
        {children}
        {field && (
          <FormField label={field.label} error={error ?? serverError} {...(field.help ? { help: field.help } : {})}>
            {control}
          </FormField>
        )}
      </div>
    </ConfirmDialog>
  );
}
