import { z } from 'zod';
import { LIMITS } from '../limits.ts';

/*
 * Closing one's own account (issue 32, decision 060): with the password, when nothing is left in it and
 * nothing is on its way in or out. Sign-in is refused from then on; the KYC records are kept.
 */

export const ACCOUNT_CLOSING_MESSAGES = {
  closed: 'Your account is closed. You have been signed out.',
  balanceNotZero: 'Your balance must be zero before you close your account. Withdraw or send what is left first.',
  inProgress: 'A deposit, withdrawal or transfer of yours is still in progress. Close your account when it has finished.',
  frozen: 'Your account is under review and cannot be closed now.',
  admin: 'An admin account cannot be closed. Ask another admin to take away your admin role first.',
  signInRefused: 'This account is closed. Contact support if you need your records.',
  reopened: 'The account is open again. Its owner can sign in and has been told by e-mail.',
  notClosed: 'This account is not closed.',
} as const;

const ENTER_CURRENT_PASSWORD = 'Please enter your current password';

/** The current password, as Change Password asks for it (and limited as sign-in is). */
export const closeAccountRequestSchema = z.object({
  currentPassword: z.string({ error: ENTER_CURRENT_PASSWORD }).min(1, ENTER_CURRENT_PASSWORD).max(LIMITS.passwordMaxLength),
});
export type CloseAccountRequest = z.input<typeof closeAccountRequestSchema>;

export const closeAccountResponseSchema = z.object({ message: z.string() });

/** An admin reopens a closed account, for instance so that money that arrived after the close can be withdrawn. */
export const reopenAccountRequestSchema = z.object({
  reason: z
    .string({ error: 'Please say why the account is reopened' })
    .trim()
    .min(1, 'Please say why the account is reopened')
    .max(LIMITS.reasonLength, `The reason can have at most ${LIMITS.reasonLength} characters.`),
});
export type ReopenAccountRequest = z.input<typeof reopenAccountRequestSchema>;

export const reopenAccountResponseSchema = z.object({ message: z.string() });
