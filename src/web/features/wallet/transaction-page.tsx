import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, Circle, CircleDot, ExternalLink, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { depositDetailResponseSchema, type Deposit } from '#shared/contracts/deposits';
import type { DepositNetwork, WithdrawalStatus } from '#shared/contracts/enums';
import { referralRewardDetailResponseSchema, type ReferralRewardDetail } from '#shared/contracts/referrals';
import { transferDetailResponseSchema, type Transfer } from '#shared/contracts/transfers';
import { withdrawalDetailResponseSchema, type Withdrawal } from '#shared/contracts/withdrawals';
import { AppPage } from '../shell/index.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { CopyButton } from '../../components/ui/copy-button.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ApiError, apiRequest } from '../../lib/api.ts';
import { cn } from '../../lib/utils.ts';
import { WALLET_QUERY_KEYS } from './api.ts';
import { displayDateTime } from '../../lib/date-format.ts';
import { displayInr, displayUsdtAmount } from './format.ts';
import { StatusBadge } from './status-badge.tsx';
import { SignedAmount, TRANSACTION_KINDS, type TransactionKind } from './transaction-display.tsx';
import { CancelWithdrawalButton, withdrawalOutcomeRow } from './withdrawal-cancel.tsx';
import { translate as t, type MessageKey } from '../../lib/i18n/i18n.ts';

const TITLES: Record<TransactionKind, MessageKey> = {
  deposit: 'transactions.deposit',
  withdrawal: 'transactions.withdrawal',
  transfer: 'transaction.transfer',
  referral: 'transactions.referralBonus',
};

/** Block explorers where anyone can look a transaction up by its hash. */
export function explorerUrl(network: DepositNetwork, transactionHash: string): string {
  return network === 'TRC20' ? `https://tronscan.org/#/transaction/${transactionHash}` : `https://etherscan.io/tx/${transactionHash}`;
}

type Loaded =
  | { kind: 'deposit'; deposit: Deposit }
  | { kind: 'withdrawal'; withdrawal: Withdrawal }
  | { kind: 'transfer'; transfer: Transfer }
  | { kind: 'referral'; reward: ReferralRewardDetail };

async function loadTransaction(kind: TransactionKind, id: string, signal: AbortSignal): Promise<Loaded> {
  const path = encodeURIComponent(id);
  switch (kind) {
    case 'deposit':
      return { kind, deposit: (await apiRequest(`/api/deposits/${path}`, depositDetailResponseSchema, { signal })).deposit };
    case 'withdrawal':
      return { kind, withdrawal: (await apiRequest(`/api/withdrawals/${path}`, withdrawalDetailResponseSchema, { signal })).withdrawal };
    case 'transfer':
      return { kind, transfer: (await apiRequest(`/api/transfers/${path}`, transferDetailResponseSchema, { signal })).transfer };
    case 'referral':
      return { kind, reward: (await apiRequest(`/api/referrals/earnings/${path}`, referralRewardDetailResponseSchema, { signal })).reward };
  }
}

function isKind(value: string | undefined): value is TransactionKind {
  return (TRANSACTION_KINDS as readonly string[]).includes(value ?? '');
}

export default function TransactionPage() {
  const params = useParams();
  const kind = isKind(params.kind) ? params.kind : undefined;
  const id = params.id ?? '';
  const transaction = useQuery({
    queryKey: WALLET_QUERY_KEYS.transaction(kind ?? 'unknown', id),
    enabled: kind !== undefined,
    queryFn: ({ signal }) => loadTransaction(kind as TransactionKind, id, signal),
    // A missing or foreign transaction stays missing: asking again will not help.
    retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
  });

  const title = kind ? t(TITLES[kind]) : t('transaction.title');
  return (
    <AppPage title={title} backTo="/wallet/history">
      {!kind || (transaction.error instanceof ApiError && (transaction.error.status === 404 || transaction.error.status === 400)) ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 py-10 pt-10 text-center">
            <p className="font-semibold">{t('transaction.notFound')}</p>
            <p className="text-sm text-slate-500">{t('transaction.notFoundText')}</p>
            <Button asChild variant="outline">
              <Link to="/wallet/history">{t('wallet.transactionHistory')}</Link>
            </Button>
          </CardContent>
        </Card>
      ) : transaction.isPending ? (
        <Card>
          <CardContent className="flex items-center justify-center gap-3 py-10 pt-10 text-slate-600">
            <Spinner />
            {t('transaction.loading')}
          </CardContent>
        </Card>
      ) : transaction.isError ? (
        <Card>
          <LoadFailed message={t('transaction.failed')} onRetry={() => void transaction.refetch()} />
        </Card>
      ) : (
        <TransactionDetails loaded={transaction.data} />
      )}
    </AppPage>
  );
}

type StepState = 'done' | 'current' | 'failed' | 'upcoming';
interface Step {
  label: string;
  state: StepState;
  time?: string | null;
  note?: ReactNode;
}

function deciding(
  status: WithdrawalStatus,
  decidedAt: string | null,
  labels: { pending: string; approved: string; rejected: string },
  notes: { approved?: ReactNode; rejected?: ReactNode },
): Step[] {
  if (status === 'approved') return [{ label: labels.approved, state: 'done', time: decidedAt, note: notes.approved }];
  if (status === 'rejected') return [{ label: labels.rejected, state: 'failed', time: decidedAt, note: notes.rejected }];
  if (status === 'cancelled') return [{ label: t('transaction.cancelledByYou'), state: 'failed', time: decidedAt, note: t('transaction.heldReturned') }];
  return [
    { label: labels.pending, state: 'current' },
    { label: labels.approved, state: 'upcoming' },
  ];
}

function reasonNote(reason: string | null, extra?: string): ReactNode {
  return (
    <>
      {reason ? t('transactions.reason', { reason }) : t('transaction.noReason')}
      {extra ? ` ${extra}` : ''}
    </>
  );
}

function stepsOf(loaded: Loaded): Step[] {
  switch (loaded.kind) {
    case 'deposit': {
      const { deposit } = loaded;
      return [
        { label: t('transaction.submitted'), state: 'done', time: deposit.createdAt },
        ...(deposit.status === 'pending' ? [] : [{ label: t('transaction.checking'), state: 'done' as const }]),
        ...deciding(
          deposit.status,
          deposit.decidedAt,
          { pending: t('transaction.checking'), approved: t('transaction.credited'), rejected: t('status.rejected') },
          { approved: t('transaction.inWallet'), rejected: reasonNote(deposit.rejectionReason) },
        ),
      ];
    }
    case 'withdrawal': {
      const { withdrawal } = loaded;
      return [
        { label: t('transaction.requested'), state: 'done', time: withdrawal.createdAt, note: t('transaction.heldFromBalance') },
        // While pending or in a payout batch, Processing is the current step (deciding() shows it).
        ...(withdrawal.status === 'pending' || withdrawal.status === 'processing' || withdrawal.status === 'cancelled'
          ? []
          : [{ label: t('status.processing'), state: 'done' as const }]),
        ...deciding(
          withdrawal.status,
          withdrawal.decidedAt,
          // In a payout batch it is being paid; before that it waits for an admin.
          {
            pending: withdrawal.status === 'processing' ? t('status.processing') : t('transaction.waitingForApproval'),
            approved: t('withdraw.paid'),
            rejected: t('status.rejected'),
          },
          {
            approved: withdrawal.payoutReference ? t('transaction.utrNote', { reference: withdrawal.payoutReference }) : t('transaction.paidToBank'),
            rejected: reasonNote(withdrawal.rejectionReason, t('transaction.heldReturned')),
          },
        ),
      ];
    }
    case 'transfer': {
      const { transfer } = loaded;
      return [
        { label: t('transaction.requested'), state: 'done', time: transfer.createdAt },
        ...deciding(
          transfer.status,
          transfer.decidedAt,
          { pending: t('transaction.waitingForApproval'), approved: t('status.approved'), rejected: t('status.rejected') },
          {
            approved: transfer.direction === 'sent' ? t('transaction.recipientCredited') : t('transaction.inWallet'),
            rejected: reasonNote(transfer.rejectionReason, transfer.direction === 'sent' ? t('transaction.returnedToWallet') : undefined),
          },
        ),
      ];
    }
    case 'referral':
      return [{ label: t('transaction.credited'), state: 'done', time: loaded.reward.earnedAt, note: t('transaction.referralPaid') }];
  }
}

const STEP_ICONS: Record<StepState, ReactNode> = {
  done: <CheckCircle2 className="size-5 text-emerald-600" aria-hidden />,
  current: <CircleDot className="size-5 text-amber-600" aria-hidden />,
  failed: <XCircle className="size-5 text-red-600" aria-hidden />,
  upcoming: <Circle className="size-5 text-slate-300" aria-hidden />,
};
const STEP_STATE_TEXT: Record<StepState, MessageKey> = {
  done: 'transaction.stepDone',
  current: 'transaction.stepCurrent',
  failed: 'transaction.stepFailed',
  upcoming: 'transaction.stepUpcoming',
};

function Timeline({ steps }: { steps: Step[] }) {
  return (
    <ol aria-label={t('transaction.timeline')} className="flex flex-col">
      {steps.map((step, index) => (
        <li key={`${step.label}-${index}`} className="relative flex gap-3 pb-4 last:pb-0" aria-current={step.state === 'current' ? 'step' : undefined}>
          {index < steps.length - 1 && <span className="absolute left-[9px] top-6 h-[calc(100%-1.25rem)] w-0.5 bg-slate-200" aria-hidden />}
          <span className="shrink-0">{STEP_ICONS[step.state]}</span>
          <div className="min-w-0">
            <p className={cn('font-medium', step.state === 'upcoming' && 'text-slate-400', step.state === 'failed' && 'text-red-700')}>
              {step.label}
              <span className="sr-only"> ({t(STEP_STATE_TEXT[step.state])})</span>
            </p>
            {step.time && <p className="text-xs text-slate-500">{displayDateTime(step.time)}</p>}
            {step.note && <p className="break-words text-sm text-slate-600">{step.note}</p>}
          </div>
        </li>
      ))}
    </ol>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 py-2 sm:flex-row sm:justify-between sm:gap-4">
      <dt className="shrink-0 text-sm text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-sm font-medium sm:text-right">{children}</dd>
    </div>
  );
}

function summaryOf(loaded: Loaded): { status: WithdrawalStatus; direction: 'in' | 'out'; amount: string; subtitle?: string } {
  switch (loaded.kind) {
    case 'deposit':
      return {
        status: loaded.deposit.status,
        direction: 'in',
        amount: `${displayUsdtAmount(loaded.deposit.amount)} USDT`,
        subtitle: t('transaction.networkDeposit', { network: loaded.deposit.network }),
      };
    case 'withdrawal':
      return {
        status: loaded.withdrawal.status,
        direction: 'out',
        amount: displayInr(loaded.withdrawal.netInr),
        subtitle: `${displayUsdtAmount(loaded.withdrawal.amountUsdt)} USDT`,
      };
    case 'transfer':
      return {
        status: loaded.transfer.status,
        direction: loaded.transfer.direction === 'sent' ? 'out' : 'in',
        amount: `${displayUsdtAmount(loaded.transfer.amount)} USDT`,
        subtitle: t(loaded.transfer.direction === 'sent' ? 'transaction.toName' : 'transaction.fromName', { name: loaded.transfer.counterparty.name }),
      };
    case 'referral':
      return {
        status: 'approved',
        direction: 'in',
        amount: `${displayUsdtAmount(loaded.reward.amount)} USDT`,
        subtitle: t('transaction.levelReferralBonus', { level: loaded.reward.level }),
      };
  }
}

function referenceIdOf(loaded: Loaded): string {
  switch (loaded.kind) {
    case 'deposit':
      return loaded.deposit.id;
    case 'withdrawal':
      return loaded.withdrawal.id;
    case 'transfer':
      return loaded.transfer.id;
    case 'referral':
      return loaded.reward.id;
  }
}

function TransactionDetails({ loaded }: { loaded: Loaded }) {
  const summary = summaryOf(loaded);
  const referenceId = referenceIdOf(loaded);
  return (
    <>
      <Card>
        <CardContent className="flex flex-col items-center gap-2 pt-6 text-center">
          <p className="text-3xl" data-testid="transaction-amount">
            <SignedAmount text={summary.amount} direction={summary.direction} status={summary.status} className="font-bold" />
          </p>
          {summary.subtitle && <p className="text-sm text-slate-600">{summary.subtitle}</p>}
          <StatusBadge status={summary.status} />
          {loaded.kind === 'withdrawal' && <CancelWithdrawalButton withdrawal={loaded.withdrawal} />}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t('transactions.status')}</CardTitle>
        </CardHeader>
        <CardContent>
          <Timeline steps={stepsOf(loaded)} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t('transaction.details')}</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="divide-y divide-slate-100">
            <KindRows loaded={loaded} />
            <Row label={t('transaction.referenceId')}>
              <span className="flex items-center gap-2 sm:justify-end">
                <span className="break-all font-mono text-xs" data-testid="reference-id">
                  {referenceId}
                </span>
                <CopyButton
                  text={referenceId}
                  label={t('transaction.copyReferenceId')}
                  successMessage={t('transaction.referenceIdCopied')}
                  className="size-8 shrink-0"
                />
              </span>
            </Row>
          </dl>
          <p className="mt-3 text-xs text-slate-500">{t('transaction.quoteReference')}</p>
        </CardContent>
      </Card>
    </>
  );
}

function OutcomeRow({ withdrawal }: { withdrawal: Withdrawal }) {
  const outcome = withdrawalOutcomeRow(withdrawal, displayInr, displayUsdtAmount);
  return <Row label={outcome.label}>{outcome.value}</Row>;
}

/** The rows of the kind's own facts, under the common ones. */
function KindRows({ loaded }: { loaded: Loaded }) {
  switch (loaded.kind) {
    case 'deposit':
      return <DepositRows deposit={loaded.deposit} />;
    case 'withdrawal':
      return <WithdrawalRows withdrawal={loaded.withdrawal} />;
    case 'transfer':
      return <TransferRows transfer={loaded.transfer} />;
    case 'referral':
      return <ReferralRows reward={loaded.reward} />;
  }
}

function DepositRows({ deposit }: { deposit: Deposit }) {
  return (
    <>
      <Row label={t('transactions.amount')}>{displayUsdtAmount(deposit.amount)} USDT</Row>
      <Row label={t('deposit.approximately')}>
        {t('transaction.approximatelyAt', { inr: displayInr(deposit.estimatedInr), rate: displayInr(deposit.rateInr) })}
      </Row>
      <Row label={t('deposit.network')}>{deposit.network}</Row>
      <Row label={t('transaction.hash')}>
        <a
          href={explorerUrl(deposit.network, deposit.transactionHash)}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-start gap-1 break-all font-mono text-xs text-brand-700 underline"
          data-testid="transaction-hash"
        >
          {deposit.transactionHash}
          <ExternalLink className="size-3.5 shrink-0" aria-hidden />
          <span className="sr-only">{t('transaction.opensExplorer', { explorer: deposit.network === 'TRC20' ? 'Tronscan' : 'Etherscan' })}</span>
        </a>
      </Row>
      <Row label={t('transaction.sentTo')}>
        <span className="break-all font-mono text-xs">{deposit.depositAddress}</span>
      </Row>
      <Row label={t('transaction.submitted')}>{displayDateTime(deposit.createdAt)}</Row>
      {deposit.decidedAt && (
        <Row label={deposit.status === 'approved' ? t('transaction.credited') : t('transaction.decided')}>{displayDateTime(deposit.decidedAt)}</Row>
      )}
    </>
  );
}

function WithdrawalRows({ withdrawal }: { withdrawal: Withdrawal }) {
  return (
    <>
      <Row label={t('transactions.amount')}>{displayUsdtAmount(withdrawal.amountUsdt)} USDT</Row>
      {withdrawal.tdsPercent !== '0.00' && (
        <>
          <Row label={t('withdraw.grossAmount')}>{displayInr(withdrawal.amountInr)}</Row>
          <Row label={t('withdraw.tdsRow', { percent: withdrawal.tdsPercent })}>− {displayInr(withdrawal.tdsInr)}</Row>
        </>
      )}
      <OutcomeRow withdrawal={withdrawal} />
      <Row label={t('withdraw.rate')}>
        <span className="inline-flex flex-wrap items-center gap-2 sm:justify-end">
          {t('withdraw.ratePerUsdt', { rate: displayInr(withdrawal.rateInr) })}
          {withdrawal.rateTier === 'vip' ? <Badge tone="vip">{t('home.vipRate')}</Badge> : <Badge>{t('home.standardRate')}</Badge>}
        </span>
      </Row>
      <Row label={t('transaction.bankAccount')}>
        {withdrawal.bank.bankName} ••••{withdrawal.bank.accountNumberLast4}
        <span className="block text-xs font-normal text-slate-500">
          {withdrawal.bank.accountHolderName} · {withdrawal.bank.ifscCode}
        </span>
      </Row>
      {withdrawal.payoutReference && <Row label={t('transaction.utr')}>{withdrawal.payoutReference}</Row>}
      <Row label={t('transaction.requested')}>{displayDateTime(withdrawal.createdAt)}</Row>
      {withdrawal.decidedAt && (
        <Row label={withdrawal.status === 'approved' ? t('transaction.paidOn') : t('transaction.decided')}>{displayDateTime(withdrawal.decidedAt)}</Row>
      )}
    </>
  );
}

function TransferRows({ transfer }: { transfer: Transfer }) {
  return (
    <>
      <Row label={t('transactions.amount')}>{displayUsdtAmount(transfer.amount)} USDT</Row>
      <Row label={transfer.direction === 'sent' ? t('transaction.to') : t('transaction.from')}>
        {transfer.counterparty.name}
        <span className="block break-all text-xs font-normal text-slate-500">{transfer.counterparty.email}</span>
      </Row>
      <Row label={t('transaction.requested')}>{displayDateTime(transfer.createdAt)}</Row>
      {transfer.decidedAt && <Row label={t('transaction.decided')}>{displayDateTime(transfer.decidedAt)}</Row>}
    </>
  );
}

function ReferralRows({ reward }: { reward: ReferralRewardDetail }) {
  return (
    <>
      <Row label={t('transaction.bonus')}>{displayUsdtAmount(reward.amount)} USDT</Row>
      <Row label={t('transaction.level')}>{t('transactions.level', { level: reward.level })}</Row>
      <Row label={t('transaction.fromDepositOf')}>{reward.referredName}</Row>
      <Row label={t('transaction.depositAmount')}>{displayUsdtAmount(reward.depositAmount)} USDT</Row>
      <Row label={t('transaction.credited')}>{displayDateTime(reward.earnedAt)}</Row>
    </>
  );
}
