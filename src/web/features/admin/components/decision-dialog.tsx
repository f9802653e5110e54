import { zodResolver } from '@hookform/resolvers/zod';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ConfirmDialog } from '../../../components/ui/dialog.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';

export interface NoteField {
  label: string;
  help?: string;
  maxLength: number;
  multiline: boolean;
  /** The contract's schema of the note, which checks the typed text. */
  schema: z.ZodType<unknown, string | undefined>;
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
  defaultNote = '',
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
  /** The note's text when the dialog opens (the PAN's registered name, for a reviewer to check). */
  defaultNote?: string;
  busy: boolean;
  serverError?: string | undefined;
  onCancel: () => void;
  onConfirm: (note: string) => void;
  children?: ReactNode;
}) {
  const form = useForm<{ note: string | undefined }>({
    // raw: the confirmation hands on the text as typed; the server applies the same schema.
    resolver: zodResolver(z.object({ note: field?.schema ?? z.string() }), undefined, { raw: true }),
    defaultValues: { note: defaultNote },
    reValidateMode: 'onSubmit',
  });
  const error = form.formState.errors.note?.message;
  const confirm = () => void form.handleSubmit((values) => onConfirm(values.note ?? ''))();

  const control = field?.multiline ? (
    <Textarea maxLength={field.maxLength} disabled={busy} rows={3} {...form.register('note')} />
  ) : (
    <Input
      maxLength={field?.maxLength}
      autoComplete="off"
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          confirm();
        }
      }}
      disabled={busy}
      {...form.register('note')}
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
