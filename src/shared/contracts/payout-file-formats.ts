import { z } from 'zod';

/*
 * The layout of a payout batch's bank file (issue 31, section 2; decision 064): our generic CSV, or a payout
 * provider's published bulk-upload layout. An admin picks one in the settings; a batch keeps the layout (and the
 * debit account) it was first downloaded in, so every later download has the same bytes.
 */

export const PAYOUT_FILE_FORMATS = ['generic', 'razorpayx_bulk', 'plural_bulk'] as const;
export type PayoutFileFormat = (typeof PAYOUT_FILE_FORMATS)[number];

export const PAYOUT_FILE_FORMAT_LABELS: Record<PayoutFileFormat, string> = {
  generic: 'Generic CSV (Rupeedesk columns)',
  razorpayx_bulk: 'RazorpayX Bulk Payouts (CSV, amount in rupees)',
  plural_bulk: 'Plural (Pine Labs) bulk payouts upload (CSV, amount in paise)',
};

/** The layouts' names in a sentence. */
export const PAYOUT_FILE_FORMAT_NAMES: Record<PayoutFileFormat, string> = {
  generic: 'generic CSV',
  razorpayx_bulk: 'RazorpayX Bulk Payouts',
  plural_bulk: 'Plural (Pine Labs) bulk payouts',
};

export const PAYOUT_FILE_LIMITS = { debitAccountNumberLength: 22 } as const;

export const PAYOUT_FILE_FORMAT_MESSAGE = `The bank file layout must be one of: ${PAYOUT_FILE_FORMATS.join(', ')}`;
export const PAYOUT_DEBIT_ACCOUNT_MESSAGE = `The debit account number is 5 to ${PAYOUT_FILE_LIMITS.debitAccountNumberLength} letters and digits`;
export const PAYOUT_DEBIT_ACCOUNT_REQUIRED_MESSAGE = 'The RazorpayX layout needs the RazorpayX account number the payouts are paid from';

export const payoutFileSettingsSchema = z
  .object({
    format: z.enum(PAYOUT_FILE_FORMATS, { error: PAYOUT_FILE_FORMAT_MESSAGE }),
    /** The account the layout debits (RazorpayX: the RazorpayX account number or customer identifier); empty when none. */
    debitAccountNumber: z
      .string({ error: PAYOUT_DEBIT_ACCOUNT_MESSAGE })
      .trim()
      .max(PAYOUT_FILE_LIMITS.debitAccountNumberLength, PAYOUT_DEBIT_ACCOUNT_MESSAGE)
      .refine((value) => value === '' || /^[A-Za-z0-9]{5,}$/.test(value), PAYOUT_DEBIT_ACCOUNT_MESSAGE),
  })
  .superRefine((value, context) => {
    if (value.format === 'razorpayx_bulk' && value.debitAccountNumber === '') {
      context.addIssue({ code: 'custom', path: ['debitAccountNumber'], message: PAYOUT_DEBIT_ACCOUNT_REQUIRED_MESSAGE });
    }
  });
export type PayoutFileSettings = z.output<typeof payoutFileSettingsSchema>;

/** A save without `payoutFile` keeps the current layout. */
export const payoutFileFormShape = { payoutFile: payoutFileSettingsSchema.optional() };

export const payoutFileViewShape = {
  payoutFile: z.object({ format: z.enum(PAYOUT_FILE_FORMATS), debitAccountNumber: z.string() }),
};
