import { z } from 'zod';
import { FORBIDDEN_CHARACTERS_MESSAGE, hasForbiddenCharacters, hasVisibleLetter } from '../text.ts';
import { cursorQuerySchema, pageSchema, uuidSchema } from './common.ts';

export const BANK_ACCOUNT_LIMITS = {
  nameMinLength: 2,
  nameMaxLength: 100,
  accountNumberMinDigits: 9,
  accountNumberMaxDigits: 18,
  ifscLength: 11,
  /** The longest UPI id UPI_PATTERN allows: 256 characters, the @ and a 64-letter handle. */
  upiMaxLength: 321,
  /** Saved accounts per customer. */
  accountsPerUser: 20,
} as const;

/**
 * A penny drop costs the operator (decision 054): at most this many account validations per customer in any
 * 24 hours; an addition or edit that would need one more is refused with 429.
 */
export const PAYEE_CHECKS_PER_DAY = 5;

/** The longest reason an admin gives for rejecting a payee (the database's check says the same). */
export const PAYEE_REJECTION_REASON_MAX_LENGTH = 500;

/**
 * What the payout provider's account validation said of a payee's current details (decision 054).
 * `unchecked`: saved without a provider (the cooling-off alone applies); `checking`: asked, no answer yet;
 * `verified`: the account is active and its registered name matches the customer's (no cooling-off);
 * `name_mismatch`, `check_failed`: no withdrawal to it until an admin accepts it (`accepted`);
 * `invalid`: the bank refused the penny, no withdrawal until its owner edits it;
 * `rejected`: an admin refused a `name_mismatch` or `check_failed` payee (decision 057), no withdrawal until its owner
 * edits it (which checks it again) or deletes it.
 */
export const PAYEE_CHECKS = ['unchecked', 'checking', 'verified', 'name_mismatch', 'invalid', 'check_failed', 'accepted', 'rejected'] as const;
export const payeeCheckSchema = z.enum(PAYEE_CHECKS);
export type PayeeCheck = z.infer<typeof payeeCheckSchema>;
/** The checks an admin may accept or reject (decision 057): every other check is decided already, or by the bank. */
export const ACCEPTABLE_PAYEE_CHECKS: readonly PayeeCheck[] = ['name_mismatch', 'check_failed'];
/** The checks by which the bank did not confirm a payee: its owner is told, and it waits in the admins' review queue. */
export const BLOCKING_PAYEE_CHECKS = ['name_mismatch', 'invalid', 'check_failed'] as const satisfies readonly PayeeCheck[];
export type BlockingPayeeCheck = (typeof BLOCKING_PAYEE_CHECKS)[number];
export function isBlockingPayeeCheck(check: PayeeCheck): check is BlockingPayeeCheck {
  return (BLOCKING_PAYEE_CHECKS as readonly PayeeCheck[]).includes(check);
}
export const PAYEE_VALIDATION_STATUSES = ['queued', 'created', 'completed', 'failed'] as const;
export type PayeeValidationStatus = (typeof PAYEE_VALIDATION_STATUSES)[number];

export const BANK_ACCOUNT_MESSAGES = {
  holderTooShort: 'Account holder name must be at least 2 characters.',
  holderTooLong: 'Account holder name must be at most 100 characters.',
  accountNumberTooShort: 'Account number must be at least 9 characters.',
  accountNumberTooLong: 'Account number must be at most 18 digits.',
  accountNumberDigits: 'Account number must contain digits only.',
  bankTooShort: 'Bank name must be at least 2 characters.',
  bankTooLong: 'Bank name must be at most 100 characters.',
  ifscLength: 'IFSC code must be 11 characters.',
  ifscShape: 'IFSC code must be 4 letters, then 0, then 6 letters or digits (for example SBIN0001234).',
  upiShape:
    'UPI ID must look like name@bank (for example asha@okhdfc): 2 to 256 letters, digits, dots, hyphens or underscores, then @, then the 2 to 64 letters of the UPI app’s handle.',
  controlCharacters: FORBIDDEN_CHARACTERS_MESSAGE,
  holderNeedsLetter: 'Account holder name must contain at least one letter.',
  bankNeedsLetter: 'Bank name must contain at least one letter.',
  notFound: 'Bank account not found',
  duplicate: 'You have already saved this bank account (same account number and IFSC code).',
  added: 'Bank account added successfully',
  updated: 'Bank account updated successfully',
  deleted: 'Bank account deleted successfully',
  hasPendingWithdrawal: 'This bank account has a pending withdrawal. You can delete it once the withdrawal is approved or rejected.',
  tooMany: `You can save at most ${BANK_ACCOUNT_LIMITS.accountsPerUser} bank accounts. Delete one you no longer use first.`,
  deleteConfirmation: 'Are you absolutely sure? This action cannot be undone. This will permanently delete your bank account from our servers.',
  empty: 'No bank accounts added yet.',
  confirmationMismatch: 'The account numbers do not match. Type the account number again.',
  confirmationRequired: 'Type the account number again to confirm it.',
  unknownIfsc: 'This IFSC code is not in the list of Indian bank branches. Check it on your cheque book or passbook.',
  /** Decision 054: the payout provider's account validation (a penny drop) of a new or changed payee. */
  checking: 'This bank account is still being checked with the bank. Try again in a few minutes.',
  nameMismatch:
    'The name the bank has for this account does not match your name. Withdrawals to it wait until our team has accepted it; you can also edit it or add an account in your own name.',
  invalidAccount: 'The bank says this account cannot receive money. Check the account number and IFSC, then edit the account or add another one.',
  checkFailed: 'We could not check this bank account with the bank. Withdrawals to it wait until our team has accepted it; you can also edit it.',
  rejected:
    'Our team reviewed this bank account and did not accept it, so withdrawals to it are not possible. Edit its details to have it checked again, or delete it and add an account in your own name.',
  tooManyChecks: `Each new or changed bank account is checked with the bank, at most ${PAYEE_CHECKS_PER_DAY} times a day. Try again tomorrow.`,
  /** Decision 044: a payout to the account failed for a reason of the account itself. */
  flagged: (reason: string) => `A payout to this bank account failed (${reason}). Check its details and edit the account before you withdraw to it.`,
} as const;

export const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;
/**
 * A UPI id (a VPA, virtual payment address) is `name@handle`, the handle being the payment app's or bank's (NPCI's
 * UPI gives every PSP its handle). The form is the one published for validating VPAs, `[a-zA-Z0-9.\-_]{2,256}@[a-zA-Z]{2,64}`
 * (GeeksforGeeks, "Validating UPI IDs using regular expressions"; the same pattern as Safexpay's SDK
 * `Validator.validUpiIdPattern`), anchored: handles are letters only (okhdfcbank, ybl, paytm, upi). The database's
 * check on bank_accounts.upi_id (migration 0047) is looser on the handle, so that ids saved before still load.
 */
export const UPI_PATTERN = /^[A-Za-z0-9._-]{2,256}@[A-Za-z]{2,64}$/;

/** Lengths in characters as the database counts them (code points), not UTF-16 units. */
const characterCount = (value: string) => [...value].length;

const nameField = (tooShort: string, tooLong: string, needsLetter: string) =>
  z
    .string({ error: tooShort })
    .trim()
    .max(BANK_ACCOUNT_LIMITS.nameMaxLength * 2, tooLong)
    .refine((value) => characterCount(value) >= BANK_ACCOUNT_LIMITS.nameMinLength, tooShort)
    .refine((value) => characterCount(value) <= BANK_ACCOUNT_LIMITS.nameMaxLength, tooLong)
    .refine((value) => !hasForbiddenCharacters(value), BANK_ACCOUNT_MESSAGES.controlCharacters)
    .refine(hasVisibleLetter, needsLetter);

export const accountHolderNameSchema = nameField(
  BANK_ACCOUNT_MESSAGES.holderTooShort,
  BANK_ACCOUNT_MESSAGES.holderTooLong,
  BANK_ACCOUNT_MESSAGES.holderNeedsLetter,
);

/** Spaces people type between digit groups are dropped. */
export const accountNumberSchema = z
  .string({ error: BANK_ACCOUNT_MESSAGES.accountNumberTooShort })
  .max(64, BANK_ACCOUNT_MESSAGES.accountNumberTooLong)
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(
    z
      .string()
      .min(BANK_ACCOUNT_LIMITS.accountNumberMinDigits, BANK_ACCOUNT_MESSAGES.accountNumberTooShort)
      .max(BANK_ACCOUNT_LIMITS.accountNumberMaxDigits, BANK_ACCOUNT_MESSAGES.accountNumberTooLong)
      .regex(/^\d+$/, BANK_ACCOUNT_MESSAGES.accountNumberDigits),
  );

export const ifscCodeSchema = z
  .string({ error: BANK_ACCOUNT_MESSAGES.ifscLength })
  .trim()
  .toUpperCase()
  .length(BANK_ACCOUNT_LIMITS.ifscLength, BANK_ACCOUNT_MESSAGES.ifscLength)
  .regex(IFSC_PATTERN, BANK_ACCOUNT_MESSAGES.ifscShape);

/** Optional: empty or null means no UPI id. */
export const upiIdSchema = z
  .string()
  .trim()
  .max(BANK_ACCOUNT_LIMITS.upiMaxLength, BANK_ACCOUNT_MESSAGES.upiShape)
  .nullish()
  .transform((value) => (value === undefined || value === null || value === '' ? null : value))
  .refine((value) => value === null || UPI_PATTERN.test(value), BANK_ACCOUNT_MESSAGES.upiShape);

/** The account number typed a second time; compared with the first after the same clean-up (spaces dropped). */
const accountNumberConfirmationSchema = z
  .string({ error: BANK_ACCOUNT_MESSAGES.confirmationRequired })
  .max(64, BANK_ACCOUNT_MESSAGES.confirmationMismatch)
  .transform((value) => value.replace(/\s+/g, ''));

/**
 * A new payee (decision 044): the account number twice, and the IFSC, from which the server takes the
 * bank's name (and the branch, where the dataset names it); neither is typed.
 */
export const bankAccountInputSchema = z
  .object({
    accountHolderName: accountHolderNameSchema,
    accountNumber: accountNumberSchema,
    accountNumberConfirmation: accountNumberConfirmationSchema,
    ifscCode: ifscCodeSchema,
    upiId: upiIdSchema,
  })
  .refine((values) => values.accountNumber === values.accountNumberConfirmation, {
    path: ['accountNumberConfirmation'],
    message: BANK_ACCOUNT_MESSAGES.confirmationMismatch,
  });
export type BankAccountInput = z.input<typeof bankAccountInputSchema>;

/**
 * An edit sends the fields that change. The list shows only the last 4 digits,
 * so an edit that leaves the account number out keeps the stored one.
 */
export const bankAccountUpdateSchema = z
  .object({
    accountHolderName: accountHolderNameSchema.optional(),
    accountNumber: accountNumberSchema.optional(),
    accountNumberConfirmation: accountNumberConfirmationSchema.optional(),
    ifscCode: ifscCodeSchema.optional(),
    upiId: z
      .string()
      .trim()
      .max(BANK_ACCOUNT_LIMITS.upiMaxLength, BANK_ACCOUNT_MESSAGES.upiShape)
      .nullable()
      .optional()
      .transform((value) => (value === '' ? null : value))
      .refine((value) => value === undefined || value === null || UPI_PATTERN.test(value), BANK_ACCOUNT_MESSAGES.upiShape),
  })
  .refine((values) => Object.values(values).some((value) => value !== undefined), { message: 'Nothing to update.' })
  .refine((values) => values.accountNumber === undefined || values.accountNumber === values.accountNumberConfirmation, {
    path: ['accountNumberConfirmation'],
    message: BANK_ACCOUNT_MESSAGES.confirmationMismatch,
  });
export type BankAccountUpdate = z.input<typeof bankAccountUpdateSchema>;

/** What the customer sees of a saved account: the account number only by its last 4 digits. */
export const bankAccountSchema = z.object({
  id: uuidSchema,
  accountHolderName: z.string(),
  bankName: z.string(),
  /** The IFSC's branch from the dataset; null when the dataset does not name it (decision 044). */
  branchName: z.string().nullable(),
  accountNumberLast4: z.string(),
  ifscCode: z.string(),
  upiId: z.string().nullable(),
  hasPendingWithdrawal: z.boolean(),
  /** Set when a payout to the account failed for a reason of the account (closed, invalid, frozen...); an edit of its details clears it. */
  flaggedAt: z.string().nullable(),
  flagReason: z.string().nullable(),
  /** The bank's check of the current details (decision 054); the bank's registered name is shown to admins only. */
  payeeCheck: payeeCheckSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BankAccount = z.infer<typeof bankAccountSchema>;

/**
 * Why a withdrawal cannot go to this payee now, or undefined when it can: a flag after a failed payout
 * (decision 044) or the bank's check (decision 054). `providerConfigured`: without a provider, a check that
 * never got its answer does not hold withdrawals back.
 */
export function payeeRefusal(
  account: { flagReason: string | null; flaggedAt: unknown; payeeCheck: PayeeCheck },
  providerConfigured: boolean,
): string | undefined {
  if (account.flaggedAt !== null) return BANK_ACCOUNT_MESSAGES.flagged(account.flagReason ?? 'account problem');
  switch (account.payeeCheck) {
    case 'checking':
      return providerConfigured ? BANK_ACCOUNT_MESSAGES.checking : undefined;
    case 'name_mismatch':
      return BANK_ACCOUNT_MESSAGES.nameMismatch;
    case 'invalid':
      return BANK_ACCOUNT_MESSAGES.invalidAccount;
    case 'check_failed':
      return BANK_ACCOUNT_MESSAGES.checkFailed;
    case 'rejected':
      return BANK_ACCOUNT_MESSAGES.rejected;
    case 'unchecked':
    case 'verified':
    case 'accepted':
      return undefined;
  }
}

/**
 * Whether the bank's check lifts the payee's cooling-off (decisions 054, 068): its registered name matched the customer's
 * for every destination a payout can use. A payout to a payee with a UPI id goes by UPI, so that UPI id must be the one
 * the bank checked and found in a matching name (`checkedUpiId`: the UPI id of the validation that verified the payee);
 * a UPI id the bank did not check (a payee verified before UPI ids were checked, or one edited since) keeps it.
 */
export function coolingOffLifted(account: {
  payeeCheck?: PayeeCheck | undefined;
  upiId?: string | null | undefined;
  checkedUpiId?: string | null | undefined;
}): boolean {
  if (account.payeeCheck !== 'verified') return false;
  return account.upiId === null || (account.upiId !== undefined && account.checkedUpiId === account.upiId);
}

/** An account validation as admins see it: what the bank said, the one name rule's verdict, when, and the provider's id. */
export const payeeValidationSchema = z.object({
  id: uuidSchema,
  status: z.enum(PAYEE_VALIDATION_STATUSES),
  accountStatus: z.enum(['active', 'invalid']).nullable(),
  registeredName: z.string().nullable(),
  /** The UPI id this validation checked (decision 054); null when it checked the bank account. */
  vpa: z.string().nullable(),
  nameVerdict: z.enum(['match', 'partial', 'mismatch']).nullable(),
  nameScore: z.number().int().nullable(),
  failureReason: z.string().nullable(),
  providerValidationId: z.string().nullable(),
  requestedAt: z.string(),
  completedAt: z.string().nullable(),
});
export type PayeeValidation = z.infer<typeof payeeValidationSchema>;

/** A customer's payee on the admin screens: the saved account, the name it was compared with, and its latest validation. */
export const adminPayeeSchema = bankAccountSchema.extend({
  userId: uuidSchema,
  customerName: z.string(),
  customerEmail: z.string(),
  acceptedAt: z.string().nullable(),
  /** An admin's rejection (decision 057): when and why; shown to admins only, as the reason may name the bank's registered name. */
  rejectedAt: z.string().nullable(),
  rejectionReason: z.string().nullable(),
  validation: payeeValidationSchema.nullable(),
});
export type AdminPayee = z.infer<typeof adminPayeeSchema>;
export const adminPayeeListResponseSchema = z.object({ items: z.array(adminPayeeSchema) });
/** The admins' review queue of payees the bank did not confirm: oldest first, a page (at most 100) at a time. */
export const payeeReviewQuerySchema = cursorQuerySchema;
export const adminPayeeReviewPageSchema = pageSchema(adminPayeeSchema);
/** The answer to an admin's accept or reject of a payee: at once (200), or a change a second admin confirms (202). */
export const payeeAcceptResponseSchema = z.object({ message: z.string(), payee: adminPayeeSchema, pendingChangeId: z.string().nullable() });
export const PAYEE_ADMIN_MESSAGES = {
  accepted: 'Payee accepted: withdrawals to it are allowed.',
  acceptWaiting: 'Accepting this payee waits for a second admin to confirm it.',
  notAcceptable: 'Only a payee whose name did not match, or whose check failed, can be accepted.',
  alreadyWaiting: 'An acceptance of this payee already waits for a second admin.',
  changed: 'The payee was changed or checked again since; look at it again.',
  rejected: 'Payee rejected: withdrawals to it are refused until the customer edits it.',
  rejectWaiting: 'Rejecting this payee waits for a second admin to confirm it.',
  notRejectable: 'Only a payee whose name did not match, or whose check failed, and that no admin has decided yet, can be rejected.',
  rejectionWaiting: 'A rejection of this payee already waits for a second admin.',
  rejectReasonNeeded: `Give the reason for the rejection (at most ${PAYEE_REJECTION_REASON_MAX_LENGTH} characters).`,
} as const;

/**
 * POST /api/admin/payees/:id/reject (decision 057): the reason is kept for admins and the audit log; the customer is
 * told a fixed text, since a reason may quote the name the bank has for the account.
 */
export const rejectPayeeRequestSchema = z.object({
  reason: z
    .string({ error: PAYEE_ADMIN_MESSAGES.rejectReasonNeeded })
    .trim()
    .min(1, PAYEE_ADMIN_MESSAGES.rejectReasonNeeded)
    .max(PAYEE_REJECTION_REASON_MAX_LENGTH * 2, PAYEE_ADMIN_MESSAGES.rejectReasonNeeded)
    .refine((value) => characterCount(value) <= PAYEE_REJECTION_REASON_MAX_LENGTH, PAYEE_ADMIN_MESSAGES.rejectReasonNeeded)
    .refine((value) => !hasForbiddenCharacters(value, { multiline: true }), FORBIDDEN_CHARACTERS_MESSAGE),
});

export const bankAccountListResponseSchema = z.object({
  items: z.array(bankAccountSchema),
  /** How long withdrawals to a newly added account pause (the security cooling-off; 0: none), said before an account is added. */
  newAccountPauseHours: z.number().int().min(0).max(720),
  /** Whether new and changed accounts are checked with the bank (a payout provider is configured; decision 054). */
  checkedWithBank: z.boolean(),
});
export const bankAccountResponseSchema = z.object({ bankAccount: bankAccountSchema, message: z.string() });
export const bankAccountDeleteResponseSchema = z.object({ ok: z.literal(true), message: z.string() });

/** GET /api/bank-accounts/ifsc/:ifscCode: what the IFSC dataset says of a code, for the form to show before saving. */
export const ifscLookupParamsSchema = z.object({ ifscCode: ifscCodeSchema });
export const ifscLookupResponseSchema = z.object({ ifscCode: z.string(), bankName: z.string(), branchName: z.string().nullable() });
export type IfscLookup = z.infer<typeof ifscLookupResponseSchema>;

export function lastFourDigits(accountNumber: string): string {
  return accountNumber.slice(-4);
}
