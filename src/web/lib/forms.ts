import type { FieldErrors, FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api.ts';

/** What `showServerFieldErrors` did with a failed request's answer. */
export interface ServerFieldErrorsOutcome<Values extends FieldValues> {
  /** The form's fields that now show the server's message for them. */
  shownFields: Path<Values>[];
  /**
   * True when the answer named fields, every one of them is a field of this form, and each now
   * shows its message: the failure is fully visible at the fields, and a page that shows one
   * message per failure needs no banner or toast for it.
   */
  fullyShownAtFields: boolean;
}

/**
 * Puts the messages of an API answer `{"error":{"code","message","fields"}}` on the form's
 * fields. `fields` lists the form's field names that the server may name; a name outside it
 * is not shown at a field, and the outcome says so.
 */
export function showServerFieldErrors<Values extends FieldValues>(
  setError: UseFormSetError<Values>,
  fields: readonly Path<Values>[],
  error: unknown,
): ServerFieldErrorsOutcome<Values> {
  if (!(error instanceof ApiError)) return { shownFields: [], fullyShownAtFields: false };
  const named = Object.entries(error.fields);
  const shownFields: Path<Values>[] = [];
  for (const [field, message] of named) {
    const formField = fields.find((name) => name === field);
    if (formField === undefined) continue;
    setError(formField, { type: 'server', message });
    shownFields.push(formField);
  }
  return { shownFields, fullyShownAtFields: named.length > 0 && shownFields.length === named.length };
}

/**
 * The first message of a failed validation, in the order the schema reported its issues: forms
 * that show one message above the fields (or in a toast) show this one.
 */
export function firstErrorMessage<Values extends FieldValues>(errors: FieldErrors<Values>): string | undefined {
  for (const fieldError of Object.values(errors)) {
    if (fieldError && typeof fieldError === 'object' && 'message' in fieldError && typeof fieldError.message === 'string') return fieldError.message;
  }
  return undefined;
}
