import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import type { WithdrawalStatus } from '#shared/contracts/enums';
import type { TransactionItem, TransactionType } from '#shared/contracts/transactions';
import { cn } from '../../lib/utils.ts';
import { displayDate, displayDateTime, displayTime } from '../../lib/date-format.ts';
import { displayInr, displayUsdt, displayUsdtAmount } from './format.ts';
import { customerChainStatus } from './chain-status.tsx';
import { StatusBadge } from './status-badge.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

/** The kinds in a transaction page's address: the history API's `referral_bonus` is `referral` there. */
export const TRANSACTION_KINDS = ['deposit', 'withdrawal', 'transfer', 'referral'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

export function kindOfType(type: TransactionType): TransactionKind {
  return type === 'referral_bonus' ? 'referral' : type;
}

export function transactionPath(item: Pick<TransactionItem, 'type' | 'id'>): string {
  return `/wallet/transactions/${kindOfType(item.type)}/${item.id}`;
}

export function typeLabel(item: Pick<TransactionItem, 'type' | 'direction'>): string {
  switch (item.type) {
    case 'deposit':
      return t('transactions.deposit');
    case 'withdrawal':
      return t('transactions.withdrawal');
    case 'transfer':
      return item.direction === 'in' ? t('transactions.transferReceived') : t('transactions.transferSent');
    case 'referral_bonus':
      return t('transactions.referralBonus');
  }
}

export function detailLine(item: TransactionItem): string | undefined {
  if (item.type === 'deposit' && item.network) return item.network;
  if (item.type === 'withdrawal') return displayUsdt(item.amountUsdt);
  if (item.type === 'transfer' && item.counterpartyEmail)
    return item.direction === 'in' ? t('transactions.from', { email: item.counterpartyEmail }) : t('transactions.to', { email: item.counterpartyEmail });
  if (item.type === 'referral_bonus' && item.referralLevel !== null) return t('transactions.level', { level: item.referralLevel });
  return undefined;
}

/**
 * How an amount reads: money that reached the wallet is green with a plus; money
 * held or paid out carries a minus; a credit not (yet) made and a debit returned
 * carry no sign, so a rejected credit never shows as +.
 */
export function amountPresentation(direction: 'in' | 'out', status: WithdrawalStatus): { sign: '+' | '−' | ''; className: string; note?: string } {
  if (direction === 'in') {
    if (status === 'approved') return { sign: '+', className: 'text-emerald-700' };
    if (status === 'rejected') return { sign: '', className: 'text-slate-500 line-through', note: t('transactions.notCredited') };
    return { sign: '', className: 'text-slate-600', note: t('transactions.notYetCredited') };
  }
  if (status === 'rejected' || status === 'cancelled') return { sign: '', className: 'text-slate-500 line-through', note: t('transactions.returned') };
  return { sign: '−', className: 'text-slate-900' };
}

export function SignedAmount({ text, direction, status, className }: { text: string; direction: 'in' | 'out'; status: WithdrawalStatus; className?: string }) {
  const presentation = amountPresentation(direction, status);
  return (
    <span className={cn('whitespace-nowrap font-semibold', presentation.className, className)}>
      {presentation.sign}
      {text}
    </span>
  );
}

/** The amount of a history line in its currency: INR for withdrawals, USDT otherwise. */
export function itemAmountText(item: TransactionItem): string {
  return item.currency === 'INR' ? displayInr(item.amount) : `${displayUsdtAmount(item.amount)} USDT`;
}

/**
 * One history line: a table row on wide screens and a card below `md`, from the
 * same markup, so the page never scrolls sideways and screen readers still get a table.
 * The whole line opens the transaction's page.
 */
export function TransactionLine({ item }: { item: TransactionItem }) {
  const detail = detailLine(item);
  const chainLine =
    item.chain && item.status !== 'processing' && item.status !== 'cancelled' && (item.status === 'pending' || item.chain.state === 'confirmed')
      ? customerChainStatus(item.status, item.chain)
      : undefined;
  return (
    <div
      role="row"
      className="relative grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-1 rounded-xl border border-slate-200 p-3 hover:bg-slate-50 focus-within:ring-2 focus-within:ring-brand-500 md:grid-cols-[minmax(0,2fr)_minmax(0,1.3fr)_minmax(0,1fr)_auto] md:items-start md:rounded-none md:border-0 md:border-b md:border-slate-100 md:px-2"
    >
      <div role="cell" className="min-w-0">
        <Link to={transactionPath(item)} className="font-medium text-slate-900 after:absolute after:inset-0 after:content-[''] focus:outline-none">
          {typeLabel(item)}
        </Link>
        {detail && <p className="break-all text-xs text-slate-500">{detail}</p>}
        {item.status === 'rejected' && item.rejectionReason && (
          <p className="mt-1 break-words text-xs text-red-700">{t('transactions.reason', { reason: item.rejectionReason })}</p>
        )}
      </div>
      <div role="cell" className="text-right md:text-left">
        <SignedAmount text={itemAmountText(item)} direction={item.direction} status={item.status} />
      </div>
      <div role="cell" className="text-xs text-slate-600">
        <time dateTime={item.createdAt} title={displayDateTime(item.createdAt)}>
          <span className="whitespace-nowrap md:block">{displayDate(item.createdAt)}</span>{' '}
          <span className="whitespace-nowrap md:block">{displayTime(item.createdAt)}</span>
        </time>
      </div>
      <div role="cell" className="flex flex-col items-end gap-1">
        <div className="flex items-center gap-1">
          <StatusBadge status={item.status} />
          <ChevronRight className="hidden size-4 text-slate-400 md:block" aria-hidden />
        </div>
        {chainLine && <p className="text-right text-xs text-slate-600">{chainLine}</p>}
      </div>
    </div>
  );
}

/** The history lines with their column headers (seen on wide screens, read by screen readers always). */
export function TransactionTable({ items, label }: { items: TransactionItem[]; label: string }) {
  return (
    <div role="table" aria-label={label} className="flex flex-col gap-2 md:gap-0">
      <div role="rowgroup" className="sr-only md:not-sr-only">
        <div
          role="row"
          className="grid grid-cols-[minmax(0,2fr)_minmax(0,1.3fr)_minmax(0,1fr)_auto] gap-x-3 border-b border-slate-200 px-2 py-2 text-xs font-medium uppercase text-slate-500"
        >
          <span role="columnheader">{t('transactions.type')}</span>
          <span role="columnheader">{t('transactions.amount')}</span>
          <span role="columnheader">{t('transactions.date')}</span>
          <span role="columnheader" className="pr-5">
            {t('transactions.status')}
          </span>
        </div>
      </div>
      <div role="rowgroup" className="flex flex-col gap-2 md:gap-0">
        {items.map((item) => (
          <TransactionLine key={`${item.type}-${item.id}-${item.direction}`} item={item} />
        ))}
      </div>
    </div>
  );
}
