import type { DepositChain } from '#shared/contracts/deposits';
import type { RequestStatus } from '#shared/contracts/enums';
import type { TransactionItem, TransactionList, TransactionType } from '#shared/contracts/transactions';
import { inrPaiseToWire, usdtMicrosToWire } from '#shared/money';
import type { Database } from '../../db/client.ts';
import { decodeCursor, toPage } from '../../platform/pagination/cursor.ts';
import * as historyRepository from './repository.ts';
import type { HistoryChainJson, HistoryRow } from './repository.ts';

function toItem(row: HistoryRow): TransactionItem {
  const isWithdrawal = row.type === 'withdrawal';
  return {
    id: row.id,
    type: row.type,
    direction: row.direction,
    amount: isWithdrawal && row.amount_inr_paise !== null ? inrPaiseToWire(row.amount_inr_paise) : usdtMicrosToWire(row.amount_usdt_micros),
    currency: isWithdrawal ? 'INR' : 'USDT',
    amountUsdt: usdtMicrosToWire(row.amount_usdt_micros),
    status: row.status,
    createdAt: row.created_at_iso,
    network: row.network,
    transactionHash: row.transaction_hash,
    counterpartyEmail: row.counterparty_email,
    referralLevel: row.referral_level,
    rejectionReason: row.rejection_reason,
    chain: row.chain === null ? null : chainFromJson(row.chain),
  };
}

/** The chain facts as the contract shows them; the response schema checks the whole answer once. */
function chainFromJson(json: HistoryChainJson): DepositChain {
  const { amountUsdtMicros, ...facts } = json;
  return { ...facts, amountUsdt: amountUsdtMicros === null ? null : usdtMicrosToWire(BigInt(amountUsdtMicros)) };
}

/**
 * A user's history (deposits, withdrawals, transfers sent and received,
 * referral bonuses), newest first, one keyset page at a time. It checks no
 * session: the caller decides whose history may be read (the customer their
 * own, an admin anyone's).
 */
export async function listTransactions(
  db: Database,
  options: { userId: string; type?: TransactionType | undefined; status?: RequestStatus | undefined; cursor?: string | undefined; limit: number },
): Promise<TransactionList> {
  const rows = await historyRepository.listHistory(db, {
    userId: options.userId,
    type: options.type,
    status: options.status,
    cursor: decodeCursor(options.cursor),
    limit: options.limit,
  });
  const page = toPage(
    rows.map((row) => ({ ...row, cursorCreatedAt: row.cursor_created_at })),
    options.limit,
  );
  return { items: page.rows.map(toItem), nextCursor: page.nextCursor };
}
