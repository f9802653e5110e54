/** What other features may use of the wallet feature. */
export { useIdempotencyKeys, usePendingTransactions, useRecentTransactions, useWalletSummary } from './api.ts';
export { displayInr, displayUsdtAmount } from './format.ts';
export { adminChainBadge } from './chain-status.tsx';
export { TransactionTable } from './transaction-display.tsx';
export { TransactionFlowNote } from './transaction-flow-note.tsx';
export { TransferDialog } from './transfer-dialog.tsx';
