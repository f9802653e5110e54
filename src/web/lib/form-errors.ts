import { useEffect, useState } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { ApiError } from './api.ts';
import { showServerFieldErrors } from './forms.ts';

/**
 * The one rule for showing a failed submission, so that each failure is said
 * once: a problem with a field is shown at that field only; a failure of the
 * whole action is shown once, inline near the submit button (never also as a
 * toast or a banner at the top). Toasts are for success and live events.
 */
export interface SubmissionFailure<Field extends string> {
  /** Messages for fields the form has, to show at those fields. */
  fieldErrors: { field: Field; message: string }[];
  /** The whole action's failure, to show near the button; undefined when the field messages say it all. */
  actionError: string | undefined;
  /** True when the server's complaint was about the PIN: only then is a typed PIN thrown away. */
  aboutPin: boolean;
}

const PIN_ERROR_CODES = new Set(['PIN_INCORRECT', 'PIN_LOCKED']);

export function describeSubmissionFailure<Field extends string>(error: unknown, formFields: readonly Field[], fallback: string): SubmissionFailure<Field> {
  if (!(error instanceof ApiError)) return { fieldErrors: [], actionError: fallback, aboutPin: false };
  const fieldErrors = Object.entries(error.fields)
    .filter(([field]) => (formFields as readonly string[]).includes(field))
    .map(([field, message]) => ({ field: field as Field, message }));
  const aboutPin = PIN_ERROR_CODES.has(error.code) || fieldErrors.some(({ field }) => field === 'pin');
  return { fieldErrors, actionError: fieldErrors.length > 0 ? undefined : error.message || fallback, aboutPin };
}

/** Puts a failure's field messages on the form's fields (with the shared `showServerFieldErrors`) and returns the failure. */
export function applySubmissionFailure<Values extends FieldValues>(
  form: UseFormReturn<Values>,
  error: unknown,
  formFields: readonly Path<Values>[],
  fallback: string,
): SubmissionFailure<Path<Values>> {
  showServerFieldErrors(form.setError, formFields, error);
  return describeSubmissionFailure(error, formFields, fallback);
}

/** The whole action's failure message, cleared as soon as the customer edits any field. */
export function useActionError<Values extends FieldValues>(form: UseFormReturn<Values>) {
  const [actionError, setActionError] = useState<string>();
  useEffect(() => {
    const subscription = form.watch(() => setActionError(undefined));
    return () => subscription.unsubscribe();
  }, [form]);
  return [actionError, setActionError] as const;
}
