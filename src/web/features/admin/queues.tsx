import { ExternalLink } from 'lucide-react';
import { Link } from 'react-router';
import type { AdminDeposit } from '#shared/contracts/deposits';
import { paymentModeFor } from '#shared/contracts/payout-batches';
import type { UserSummary } from '#shared/contracts/money-common';
import type { AdminTransfer } from '#shared/contracts/transfers';
import type { AdminWithdrawal } from '#shared/contracts/withdrawals';
import { inrPaiseFromWire } from '#shared/money';
import { Badge } from '../../components/ui/badge.tsx';
import { adminChainBadge } from '../wallet/index.ts';
import { useDepositQueue, useTransferQueue, useWithdrawalQueue } from './api.ts';
import { CopyValue } from './components/copy-value.tsx';
import { PayoutBatchButton } from './components/payout-batch-button.tsx';
import { ProviderPayoutDetails } from './components/provider-payout-details.tsx';
import { StuckPayoutsAlert } from './components/stuck-payouts-alert.tsx';
import { AwaitingSecondApproval } from './components/pending-changes-panel.tsx';
import type { QueueColumn, QueueDefinition } from './components/queue-table.tsx';
import { exactUsdtText, inrText, usdtText } from './format.ts';
import { describeWithdrawalDecision } from './withdrawal-decision-text.ts';

const EXPLORERS = {
  TRC20: { name: 'Tronscan', url: (hash: string) => `https://tronscan.org/#/transaction/${encodeURIComponent(hash)}` },
  ERC20: { name: 'Etherscan', url: (hash: string) => `https://etherscan.io/tx/${encodeURIComponent(hash)}` },
} as const;

function UserDetails({ user }: { user: UserSummary }) {
  return (
    <>
      <Link to={`/admin/users/${user.id}`} className="font-medium text-slate-900 hover:text-brand-700 hover:underline">
        {user.name}
      </Link>
      <p className="break-all text-slate-600">{user.email}</p>
      <p className="text-slate-500">{user.phone}</p>
    </>
  );
}

function userColumn<Row>(header: string, userOf: (row: Row) => UserSummary): QueueColumn<Row> {
  return { header, wide: true, cell: (row) => <UserDetails user={userOf(row)} /> };
}

function RejectionReason({ reason }: { reason: string | null }) {
  return reason ? <p className="mt-1 text-xs text-slate-600">Reason: {reason}</p> : null;
}

/** What the blockchain says about a deposit, so approving takes a glance instead of an explorer search. */
function ChainFacts({ deposit }: { deposit: AdminDeposit }) {
  const { chain } = deposit;
  const badge = adminChainBadge(chain, deposit.typedAmount);
  const facts: [string, string][] = [];
  if (chain.amountUsdt !== null) facts.push(['On chain', usdtText(chain.amountUsdt)]);
  if (deposit.typedAmount !== null) facts.push(['Typed', usdtText(deposit.typedAmount)]);
  if (chain.fromAddress !== null) facts.push(['From', chain.fromAddress]);
  if (chain.toAddress !== null) facts.push(['To (on chain)', chain.toAddress]);
  if (chain.confirmations !== null)
    facts.push(['Confirmations', `${chain.confirmations}${chain.requiredConfirmations === null ? '' : ` of ${chain.requiredConfirmations}`}`]);
  if (deposit.source === 'detected') facts.push(['Found by', 'scanning the chain (no hash submitted)']);
  return (
    <div className="mt-2 flex flex-col items-start gap-1" data-testid={`deposit-${deposit.id}-chain`}>
      <Badge tone={badge.tone}>{badge.label}</Badge>
      {badge.note && <p className="text-xs font-medium text-amber-800">{badge.note}</p>}
      {facts.length > 0 && (
        <dl className="text-xs text-slate-600">
          {facts.map(([label, value]) => (
            <div key={label} className="flex gap-1">
              <dt className="shrink-0">{label}:</dt>
              <dd className="break-all">{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}

/** The exact amount when it has more decimals than the short form shows. */
const depositAmountText = (deposit: AdminDeposit) => exactUsdtText(deposit.amount) ?? usdtText(deposit.amount);

export const DEPOSIT_QUEUE: QueueDefinition<AdminDeposit> = {
  kind: 'deposits',
  title: 'USDT Deposits',
  rowName: 'deposit',
  tableClassName: 'md:min-w-[56rem]',
  loadingText: 'Loading deposits...',
  emptyText: 'No deposits found',
  failureTitle: 'Failed to load deposits',
  useQueue: useDepositQueue,
  usersOf: (deposit) => [deposit.user.id],
  columns: [
    userColumn('User', (deposit) => deposit.user),
    {
      header: 'Amount (USDT)',
      className: 'whitespace-nowrap',
      cell: (deposit) => {
        const exactAmount = exactUsdtText(deposit.amount);
        return (
          <>
            <p className="font-medium">{usdtText(deposit.amount)}</p>
            {exactAmount && <p className="text-xs text-slate-600">Exactly {exactAmount}</p>}
            <p className="text-xs text-slate-500">≈ {inrText(deposit.estimatedInr)}</p>
          </>
        );
      },
    },
    {
      header: 'Transaction Hash',
      wide: true,
      className: 'md:max-w-[18rem]',
      cell: (deposit) => {
        const explorer = EXPLORERS[deposit.network];
        return (
          <>
            <Badge tone="brand">{deposit.network}</Badge>
            <CopyValue value={deposit.transactionHash} what="Transaction hash" className="mt-1 text-xs" />
            <a
              href={explorer.url(deposit.transactionHash)}
              target="_blank"
              rel="noopener noreferrer"
              className="mt-1 inline-flex items-center gap-1 text-xs text-brand-700 hover:underline"
            >
              View on {explorer.name}
              <ExternalLink className="size-3" aria-hidden />
            </a>
            <p className="mt-1 break-all text-xs text-slate-500">To {deposit.depositAddress}</p>
            <ChainFacts deposit={deposit} />
          </>
        );
      },
    },
  ],
  statusDetails: (deposit) => (
    <>
      {deposit.status === 'pending' && <AwaitingSecondApproval depositId={deposit.id} />}
      <RejectionReason reason={deposit.rejectionReason} />
    </>
  ),
  summary: (deposit) => `Deposit of ${depositAmountText(deposit)} by ${deposit.user.name}`,
  describeDecision: (deposit, decision) =>
    decision === 'approve'
      ? `Credit ${depositAmountText(deposit)} to ${deposit.user.name} (${deposit.user.email})? Approve only after the transaction has arrived in the ${deposit.network} wallet.`
      : `The deposit of ${depositAmountText(deposit)} from ${deposit.user.name} (${deposit.user.email}) will be marked rejected. No money moves.`,
};

function BankDetails({ bank }: { bank: AdminWithdrawal['bank'] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] items-center gap-x-2 gap-y-0.5 text-xs">
      <dt className="text-slate-500">Holder</dt>
      <dd className="font-medium text-slate-900">{bank.accountHolderName}</dd>
      <dt className="text-slate-500">Bank</dt>
      <dd>{bank.bankName}</dd>
      <dt className="text-slate-500">Account</dt>
      <dd>
        <CopyValue value={bank.accountNumber} what="Account number" />
      </dd>
      <dt className="text-slate-500">IFSC</dt>
      <dd>
        <CopyValue value={bank.ifscCode} what="IFSC" />
      </dd>
      {bank.upiId && (
        <>
          <dt className="text-slate-500">UPI</dt>
          <dd>
            <CopyValue value={bank.upiId} what="UPI ID" mono={false} />
          </dd>
        </>
      )}
    </dl>
  );
}

export const WITHDRAWAL_QUEUE: QueueDefinition<AdminWithdrawal> = {
  kind: 'withdrawals',
  title: 'INR Withdrawals',
  headingAction: (
    <>
      <StuckPayoutsAlert />
      <PayoutBatchButton />
    </>
  ),
  rowName: 'withdrawal',
  tableClassName: 'md:min-w-[60rem]',
  loadingText: 'Loading withdrawals...',
  emptyText: 'No withdrawals found',
  failureTitle: 'Failed to load withdrawals',
  useQueue: useWithdrawalQueue,
  usersOf: (withdrawal) => [withdrawal.user.id],
  columns: [
    userColumn('User', (withdrawal) => withdrawal.user),
    {
      header: 'Amount (INR)',
      className: 'whitespace-nowrap',
      cell: (withdrawal) => (
        <>
          <p className="font-medium">{inrText(withdrawal.amountInr)}</p>
          <p className="text-xs text-slate-500">
            {usdtText(withdrawal.amountUsdt)} at {inrText(withdrawal.rateInr)}
          </p>
          {withdrawal.tdsPercent !== '0.00' && (
            <p className="text-xs text-slate-600" data-testid="withdrawal-tds">
              TDS {withdrawal.tdsPercent}%: {inrText(withdrawal.tdsInr)}
              <br />
              <span className="font-semibold text-slate-900">Pay {inrText(withdrawal.netInr)}</span>
            </p>
          )}
          {withdrawal.rateTier === 'vip' && (
            <Badge tone="vip" className="mt-1">
              VIP Rate
            </Badge>
          )}
        </>
      ),
    },
    { header: 'Bank Details', wide: true, className: 'md:min-w-[14rem]', cell: (withdrawal) => <BankDetails bank={withdrawal.bank} /> },
  ],
  statusDetails: (withdrawal) => (
    <>
      {(withdrawal.status === 'pending' || withdrawal.status === 'processing') && <AwaitingSecondApproval withdrawalId={withdrawal.id} />}
      {withdrawal.payoutReference && <p className="mt-1 break-all text-xs text-slate-600">UTR: {withdrawal.payoutReference}</p>}
      <RejectionReason reason={withdrawal.rejectionReason} />
      {withdrawal.status !== 'pending' && (
        <ProviderPayoutDetails withdrawalId={withdrawal.id} rejectDescription={describeWithdrawalDecision(withdrawal, 'reject', true)} />
      )}
    </>
  ),
  summary: (withdrawal) => `Withdrawal of ${inrText(withdrawal.amountInr)} by ${withdrawal.user.name}`,
  paymentModeOf: (withdrawal) => paymentModeFor(inrPaiseFromWire(withdrawal.netInr), withdrawal.bank.upiId),
  describeDecision: (withdrawal, decision, options) => describeWithdrawalDecision(withdrawal, decision, options.viaProvider),
};

export const TRANSFER_QUEUE: QueueDefinition<AdminTransfer> = {
  kind: 'transfers',
  title: 'USDT Transfers',
  rowName: 'transfer',
  tableClassName: 'md:min-w-[52rem]',
  loadingText: 'Loading transfers...',
  emptyText: 'No transfers found',
  failureTitle: 'Failed to load transfers',
  useQueue: useTransferQueue,
  usersOf: (transfer) => [transfer.sender.id, transfer.recipient.id],
  columns: [
    userColumn('From', (transfer) => transfer.sender),
    userColumn('To', (transfer) => transfer.recipient),
    { header: 'Amount (USDT)', className: 'whitespace-nowrap font-medium', cell: (transfer) => usdtText(transfer.amount) },
  ],
  statusDetails: (transfer) => <RejectionReason reason={transfer.rejectionReason} />,
  summary: (transfer) => `Transfer of ${usdtText(transfer.amount)} from ${transfer.sender.name} to ${transfer.recipient.name}`,
  describeDecision: (transfer, decision) =>
    decision === 'approve'
      ? `${usdtText(transfer.amount)} from ${transfer.sender.name} (${transfer.sender.email}) will be credited to ${transfer.recipient.name} (${transfer.recipient.email}).`
      : `${usdtText(transfer.amount)} will be returned to ${transfer.sender.name} (${transfer.sender.email}).`,
};
