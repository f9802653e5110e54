import { lastFourDigits } from '#shared/contracts/bank-accounts';
import { tdsPercentToWire } from '#shared/contracts/withdrawal-rules';
import { WITHDRAWAL_MESSAGES, type AdminWithdrawal, type Withdrawal } from '#shared/contracts/withdrawals';
import { inrPaiseToWire, ratePaiseToWire, usdtMicrosToWire } from '#shared/money';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { decodeCursor, toPage, toPageBy } from '../../platform/pagination/cursor.ts';
import * as withdrawalRepository from './repository.ts';
import type { WithdrawalRow, WithdrawalWithUserRow } from './repository.ts';

/** What a withdrawal's customer and its admins both see. */
function commonView(row: WithdrawalRow) {
  return {
    id: row.id,
    amountUsdt: usdtMicrosToWire(row.amountUsdtMicros),
    amountInr: inrPaiseToWire(row.amountInrPaise),
    tdsInr: inrPaiseToWire(row.tdsInrPaise),
    netInr: inrPaiseToWire(row.amountInrPaise - row.tdsInrPaise),
    tdsPercent: tdsPercentToWire(row.tdsBasisPoints),
    rateInr: ratePaiseToWire(row.rateInrPaise),
    rateTier: row.rateTier,
    status: row.status,
    bankAccountId: row.bankAccountId,
    createdAt: row.createdAt.toISOString(),
    approvedAt: row.approvedAt?.toISOString() ?? null,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    payoutReference: row.payoutReference,
    rejectionReason: row.rejectionReason,
    reference: row.reference,
  };
}

export function toWithdrawalView(row: WithdrawalRow): Withdrawal {
  // Object.assign rather than a spread with further properties, which V8 copies property by property (decision 014).
  return Object.assign(commonView(row), {
    bank: {
      accountHolderName: row.accountHolderName,
      bankName: row.bankName,
      accountNumberLast4: lastFourDigits(row.accountNumber),
      ifscCode: row.ifscCode,
      upiId: row.upiId,
    },
  });
}

export function toAdminWithdrawalView(row: WithdrawalWithUserRow): AdminWithdrawal {
  const withdrawal = row.withdrawal;
  return Object.assign(commonView(withdrawal), {
    user: row.user,
    bank: {
      accountHolderName: withdrawal.accountHolderName,
      bankName: withdrawal.bankName,
      accountNumber: withdrawal.accountNumber,
      ifscCode: withdrawal.ifscCode,
      upiId: withdrawal.upiId,
    },
  });
}

export async function getOwnWithdrawal(db: Database, userId: string, withdrawalId: string): Promise<Withdrawal> {
  const row = await withdrawalRepository.findOwned(db, userId, withdrawalId);
  if (!row) throw AppError.notFound(WITHDRAWAL_MESSAGES.notFound);
  return toWithdrawalView(row);
}

export async function listOwnWithdrawals(
  db: Database,
  userId: string,
  options: { status?: Withdrawal['status'] | undefined; cursor?: string | undefined; limit: number },
): Promise<{ items: Withdrawal[]; nextCursor: string | null }> {
  const rows = await withdrawalRepository.listOwned(db, userId, { status: options.status, cursor: decodeCursor(options.cursor), limit: options.limit });
  const page = toPage(rows, options.limit);
  return { items: page.rows.map(toWithdrawalView), nextCursor: page.nextCursor };
}

/** One withdrawal as the admins see it, read in the transaction that decided it. */
export async function adminView(db: Executor, withdrawalId: string): Promise<AdminWithdrawal> {
  const row = await withdrawalRepository.findWithUser(db, withdrawalId);
  if (!row) throw new Error(`withdrawal ${withdrawalId} vanished inside its own transaction`);
  return toAdminWithdrawalView(row);
}

export async function listWithdrawalsForAdmin(
  db: Database,
  options: { status?: Withdrawal['status'] | undefined; cursor?: string | undefined; limit: number },
): Promise<{ items: AdminWithdrawal[]; nextCursor: string | null }> {
  const rows = await withdrawalRepository.listWithUsers(db, { status: options.status, cursor: decodeCursor(options.cursor), limit: options.limit });
  const page = toPageBy(rows, options.limit, (row) => ({ createdAt: row.cursorCreatedAt, id: row.withdrawal.id }));
  return { items: page.rows.map(toAdminWithdrawalView), nextCursor: page.nextCursor };
}
