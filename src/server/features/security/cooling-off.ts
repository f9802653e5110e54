import { coolingOffLifted, type PayeeCheck } from '#shared/contracts/bank-accounts';
import { formatPauseEnd, type Pause, type SecurityPauses } from '#shared/contracts/security';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import * as securityRepository from './repository.ts';

/**
 * The cooling-off after a security change: for SECURITY_COOLING_OFF_HOURS after
 * a PIN or password reset no money leaves the account, and after a bank account
 * is added or a field that decides where money goes changes (account number, IFSC,
 * UPI id, holder name: decision 038) no withdrawal goes to it. Someone who
 * took over an account (by phishing the password, say) thus cannot empty it
 * before the owner reads the e-mail we send about the change.
 */

type AccountReason = 'pin-reset' | 'password-reset';

interface ResetTimes {
  pinResetAt: Date | null;
  passwordResetAt: Date | null;
}

interface AccountPause {
  until: Date;
  reason: AccountReason;
}

const HOUR_MILLISECONDS = 60 * 60 * 1000;

function pauseEnd(context: AppContext, changedAt: Date | null): Date | undefined {
  const hours = context.config.securityCoolingOffHours;
  if (hours === 0 || changedAt === null) return undefined;
  const until = new Date(changedAt.getTime() + hours * HOUR_MILLISECONDS);
  return until.getTime() > Date.now() ? until : undefined;
}

const REASON_TEXT: Record<AccountReason, string> = {
  'pin-reset': 'your PIN was reset recently',
  // A change through the profile starts the same pause as a reset (both set password_reset_at).
  'password-reset': 'your password was changed recently',
};

export function withdrawalsPausedMessage(pause: AccountPause): string {
  return `Withdrawals are paused until ${formatPauseEnd(pause.until)} because ${REASON_TEXT[pause.reason]}.`;
}

export function transfersPausedMessage(pause: AccountPause): string {
  return `Transfers are paused until ${formatPauseEnd(pause.until)} because ${REASON_TEXT[pause.reason]}.`;
}

export function bankAccountPausedMessage(until: Date): string {
  return `Withdrawals to this bank account are paused until ${formatPauseEnd(until)} because it was added or its details changed recently.`;
}

/** The account-wide pause in force, if any: the later of the PIN and password resets decides. */
export async function findAccountPause(db: Executor, context: AppContext, userId: string): Promise<AccountPause | undefined> {
  if (context.config.securityCoolingOffHours === 0) return undefined;
  return accountPauseFrom(context, await securityRepository.findResetTimes(db, userId));
}

/** The account-wide pause that the user's reset times (read by the caller) put in force, if any. */
export function accountPauseFrom(context: AppContext, row: ResetTimes | undefined): AccountPause | undefined {
  if (!row) return undefined;
  const candidates: AccountPause[] = [];
  const afterPin = pauseEnd(context, row.pinResetAt);
  if (afterPin) candidates.push({ until: afterPin, reason: 'pin-reset' });
  const afterPassword = pauseEnd(context, row.passwordResetAt);
  if (afterPassword) candidates.push({ until: afterPassword, reason: 'password-reset' });
  return candidates.sort((first, second) => second.until.getTime() - first.until.getTime())[0];
}

/** `checkedUpiId`: the UPI id the bank checked when it verified the payee (null when it checked the bank account alone). */
type PausedPayee = { detailsChangedAt: Date; payeeCheck?: PayeeCheck; upiId?: string | null; checkedUpiId?: string | null };

export function bankAccountPauseEnd(context: AppContext, bankAccount: PausedPayee): Date | undefined {
  return coolingOffLifted(bankAccount) ? undefined : pauseEnd(context, bankAccount.detailsChangedAt);
}

function coolingOff(message: string): AppError {
  return new AppError(403, 'COOLING_OFF', message);
}

/** Refuses a withdrawal while the account (its pause found by accountPauseFrom) or the chosen bank account is cooling off. */
export function assertWithdrawalAllowedFor(context: AppContext, accountPause: AccountPause | undefined, bankAccount: PausedPayee): void {
  if (accountPause) throw coolingOff(withdrawalsPausedMessage(accountPause));
  const bankAccountPause = bankAccountPauseEnd(context, bankAccount);
  if (bankAccountPause) throw coolingOff(bankAccountPausedMessage(bankAccountPause));
}

export async function assertTransferAllowed(db: Executor, context: AppContext, userId: string): Promise<void> {
  const accountPause = await findAccountPause(db, context, userId);
  if (accountPause) throw coolingOff(transfersPausedMessage(accountPause));
}

/** Everything paused for this customer now, for the withdraw page to show before anything is typed. */
export async function listPauses(db: Executor, context: AppContext, userId: string): Promise<SecurityPauses> {
  const accountPause = await findAccountPause(db, context, userId);
  const toPause = (until: Date, message: string): Pause => ({ until: until.toISOString(), message });
  const accounts = context.config.securityCoolingOffHours === 0 ? [] : await securityRepository.listBankAccountChanges(db, userId);
  return {
    withdrawals: accountPause ? toPause(accountPause.until, withdrawalsPausedMessage(accountPause)) : null,
    transfers: accountPause ? toPause(accountPause.until, transfersPausedMessage(accountPause)) : null,
    bankAccounts: accounts.flatMap((account) => {
      const until = bankAccountPauseEnd(context, account);
      return until ? [{ bankAccountId: account.id, ...toPause(until, bankAccountPausedMessage(until)) }] : [];
    }),
  };
}
