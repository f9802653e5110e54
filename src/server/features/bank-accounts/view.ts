import { lastFourDigits, type BankAccount } from '#shared/contracts/bank-accounts';
import type { BankAccountRow } from './repository.ts';

export function toBankAccountView(row: BankAccountRow, hasPendingWithdrawal: boolean): BankAccount {
  return {
    id: row.id,
    accountHolderName: row.accountHolderName,
    bankName: row.bankName,
    branchName: row.branchName,
    accountNumberLast4: lastFourDigits(row.accountNumber),
    ifscCode: row.ifscCode,
    upiId: row.upiId,
    hasPendingWithdrawal,
    flaggedAt: row.flaggedAt?.toISOString() ?? null,
    flagReason: row.flagReason,
    payeeCheck: row.payeeCheck,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
