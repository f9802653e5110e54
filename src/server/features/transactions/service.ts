import type { DepositChain } from '#shared/contracts/deposits';
import type { RequestStatus } from '#shared/contracts/enums';
import type { TransactionItem, TransactionList, TransactionType } from '#shared/contracts/transactions';
import { inrPaiseToWire, usdtMicrosToWire } from '#shared/money';
import type { Database } from '../../db/client.ts';
import { decodeCursor, toPageBy } from '../../platform/pagination/cursor.ts';
import { joinedReadOf, type SessionRecord } from '../../platform/sessions/repository.ts';
import * as historyRepository from './repository.ts';
import type { HistoryParts, HistoryRow } from './repository.ts';

/** GET /api/transactions' joined read: its session lookup also finds which parts of the history have entries. */
export const HISTORY_PARTS_READ = historyRepository.HISTORY_PARTS_READ;

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
    // To the millisecond, as every answer shows times: the first 23 characters of the exact text, then Z.
    createdAt: `${row.created_at_micros.slice(0, 23)}Z`,
    network: row.network,
    transactionHash: row.transaction_hash,
    counterpartyEmail: row.counterparty_email,
    referralLevel: row.referral_level,
    rejectionReason: row.rejection_reason,
    chain: chainOf(row),
  };
}

/** A deposit's chain facts as the contract shows them (null for the other kinds); the response schema checks the whole answer once. */
function chainOf(row: HistoryRow): DepositChain | null {
  if (row.chain_state === null) return null;
  return {
    state: row.chain_state,
    problem: row.chain_problem,
    delayed: row.chain_delayed === true,
    amountUsdt: row.chain_amount_usdt_micros === null ? null : usdtMicrosToWire(row.chain_amount_usdt_micros),
    fromAddress: row.chain_from_address,
    toAddress: row.chain_to_address,
    confirmations: row.chain_confirmations,
    requiredConfirmations: row.chain_required_confirmations,
    blockNumber: row.chain_block_number === null ? null : row.chain_block_number.toString(),
    logIndex: row.chain_log_index,
    checkedAt: row.chain_checked_at_iso,
    senderProven: row.chain_sender_proven,
    transfersToAddress: row.chain_transfers_to_address,
  };
}

/**
 * A user's history (deposits, withdrawals, transfers sent and received,
 * referral bonuses), newest first, one keyset page at a time. It checks no
 * session: the caller decides whose history may be read (the customer their
 * own, an admin anyone's). `parts`, when the caller has them, leaves out the
 * parts without entries.
 */
export async function listTransactions(
  db: Database,
  options: {
    userId: string;
    type?: TransactionType | undefined;
    status?: RequestStatus | undefined;
    parts?: HistoryParts | undefined;
    cursor?: string | undefined;
    limit: number;
  },
): Promise<TransactionList> {
  const rows = await historyRepository.listHistory(db, {
    userId: options.userId,
    type: options.type,
    status: options.status,
    parts: options.parts,
    cursor: decodeCursor(options.cursor),
    limit: options.limit,
  });
  const page = toPageBy(rows, options.limit, (row) => ({ createdAt: row.created_at_micros, id: row.id }));
  return { items: page.rows.map(toItem), nextCursor: page.nextCursor };
}

/** The customer's own history, with the parts their session lookup found entries in (the route's `sessionJoinedRead`). */
export async function listOwnTransactions(
  db: Database,
  session: SessionRecord,
  query: { type?: TransactionType | undefined; status?: RequestStatus | undefined; cursor?: string | undefined; limit: number },
): Promise<TransactionList> {
  return listTransactions(db, { ...query, userId: session.userId, parts: joinedReadOf(session, HISTORY_PARTS_READ) });
}
