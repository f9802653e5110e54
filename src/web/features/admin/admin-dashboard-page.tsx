import {
  ArrowDownToLine,
  ArrowLeftRight,
  ArrowUpFromLine,
  CheckCircle2,
  ChevronRight,
  ClipboardList,
  KeyRound,
  Loader,
  Receipt,
  Scale,
  Settings,
  Users,
  Wallet,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { AdminDashboard, HouseAccountKind } from '#shared/contracts/admin';
import { formatUsdtExact, usdtMicrosFromWire } from '#shared/money';
import { Alert } from '../../components/ui/alert.tsx';
import { Card } from '../../components/ui/card.tsx';
import { errorMessage } from '../../lib/api.ts';
import { cn } from '../../lib/utils.ts';
import { useCanReadOperatorFigures } from '../shell/index.ts';
import { useAdminDashboard } from './api.ts';
import { AdminPage } from './components/admin-page.tsx';
import { PendingChangesPanel } from './components/pending-changes-panel.tsx';
import { StuckPayoutsAlert } from './components/stuck-payouts-alert.tsx';
import { ErrorState, LoadingState } from './components/list-states.tsx';
import { ageText, inrText, shortDateTimeText, usdtText } from './format.ts';

const HOUSE_ACCOUNT_LABELS: Record<HouseAccountKind, string> = {
  deposits_received: 'Deposits received',
  referral_rewards: 'Referral rewards paid',
  withdrawals_pending: 'Withdrawals held (pending and processing)',
  transfers_pending: 'Transfers held',
  withdrawals_paid: 'Withdrawals paid out',
};

/** Every digit of a USDT amount, signed: the books must show the exact figures. */
const exactUsdt = (wire: string) => `${formatUsdtExact(usdtMicrosFromWire(wire))} USDT`;

function Figure({ label, value, detail, age, to, icon }: { label: string; value: string; detail?: string; age?: string; to?: string; icon: ReactNode }) {
  const body = (
    <>
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700 [&_svg]:size-5">{icon}</span>
      <span className="min-w-0 flex-1">
        <span className="block text-sm text-slate-500">{label}</span>
        <span className="block text-lg font-semibold text-slate-900">{value}</span>
        {detail && <span className="block text-sm text-slate-600">{detail}</span>}
        {age && <span className="block text-xs font-medium text-amber-700">{age}</span>}
      </span>
      {to && <ChevronRight className="size-4 shrink-0 text-slate-400" aria-hidden />}
    </>
  );
  const className = 'flex items-center gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm';
  return to ? (
    <Link to={to} className={`${className} hover:border-brand-500`}>
      {body}
    </Link>
  ) : (
    <div className={className}>{body}</div>
  );
}

function NavigationCard({ to, title, description, icon }: { to: string; title: string; description: string; icon: ReactNode }) {
  return (
    <Link to={to} className="group block rounded-2xl focus-visible:outline-2">
      <Card className="flex h-full items-center gap-4 p-5 transition-colors group-hover:border-brand-500">
        <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-brand-700 text-white [&_svg]:size-6">{icon}</span>
        <span className="min-w-0 flex-1">
          <span className="block font-semibold text-slate-900">{title}</span>
          <span className="block text-sm text-slate-500">{description}</span>
        </span>
        <ChevronRight className="size-5 shrink-0 text-slate-400" aria-hidden />
      </Card>
    </Link>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

const countText = (count: number, one: string, many: string) => (count === 1 ? `1 ${one}` : `${count} ${many}`);

function Queues({ figures }: { figures: AdminDashboard }) {
  const queueLink = (tab: string, status: string) => ({ to: `/admin/transactions?tab=${tab}&status=${status}` });
  const oldest = (oldestAt: string | null) => (oldestAt ? { age: `Oldest waiting ${ageText(oldestAt, figures.generatedAt)}` } : {});
  return (
    <Section id="waiting-heading" title="Waiting for approval">
      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        <Figure
          label="Pending deposits"
          value={countText(figures.pendingDeposits.count, 'pending', 'pending')}
          detail={usdtText(figures.pendingDeposits.totalUsdt)}
          icon={<ArrowDownToLine />}
          {...oldest(figures.pendingDeposits.oldestAt)}
          {...queueLink('deposits', 'pending')}
        />
        <Figure
          label="Pending withdrawals"
          value={countText(figures.pendingWithdrawals.count, 'pending', 'pending')}
          detail={`${inrText(figures.pendingWithdrawals.totalInr)} (${usdtText(figures.pendingWithdrawals.totalUsdt)})`}
          icon={<ArrowUpFromLine />}
          {...oldest(figures.pendingWithdrawals.oldestAt)}
          {...queueLink('withdrawals', 'pending')}
        />
        <Figure
          label="In payout batches"
          value={countText(figures.processingWithdrawals.count, 'processing', 'processing')}
          detail={`${inrText(figures.processingWithdrawals.totalInr)} (${usdtText(figures.processingWithdrawals.totalUsdt)})`}
          icon={<Loader />}
          {...oldest(figures.processingWithdrawals.oldestAt)}
          to="/admin/payouts"
        />
        <Figure
          label="Pending transfers"
          value={countText(figures.pendingTransfers.count, 'pending', 'pending')}
          detail={usdtText(figures.pendingTransfers.totalUsdt)}
          icon={<ArrowLeftRight />}
          {...oldest(figures.pendingTransfers.oldestAt)}
          {...queueLink('transfers', 'pending')}
        />
      </div>
    </Section>
  );
}

function Today({ figures }: { figures: AdminDashboard }) {
  const { paidWithdrawals, creditedDeposits } = figures.today;
  return (
    <Section id="today-heading" title={`Today in India (${figures.today.date})`}>
      <div className="grid gap-3 sm:grid-cols-2">
        <Figure
          label="Paid out today"
          value={inrText(paidWithdrawals.totalInr)}
          detail={`${countText(paidWithdrawals.count, 'withdrawal', 'withdrawals')}, ${usdtText(paidWithdrawals.totalUsdt)}`}
          icon={<CheckCircle2 />}
        />
        <Figure
          label="Credited today"
          value={usdtText(creditedDeposits.totalUsdt)}
          detail={countText(creditedDeposits.count, 'deposit', 'deposits')}
          icon={<Wallet />}
        />
      </div>
    </Section>
  );
}

/** The customers' wallets against the house accounts: together they add up to zero when the books balance. */
function Books({ figures }: { figures: AdminDashboard }) {
  const { books } = figures;
  return (
    <Section id="books-heading" title="Books">
      <Card className="flex flex-col gap-3 p-4" data-testid="books">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Scale className="size-4" aria-hidden />
            Customer balances {figures.userCount === 1 ? '(1 user)' : `(${figures.userCount} users)`}
          </p>
          <span
            className={cn('rounded-full px-3 py-1 text-sm font-semibold', books.balanced ? 'bg-emerald-100 text-emerald-800' : 'bg-red-100 text-red-800')}
            role="status"
          >
            {books.balanced ? 'Books balance' : `Books differ by ${exactUsdt(books.differenceUsdt)}`}
          </span>
        </div>
        <table className="w-full text-sm">
          <caption className="sr-only">Customer balances against the house accounts of the ledger</caption>
          <tbody className="divide-y divide-slate-100">
            <tr>
              <th scope="row" className="py-1.5 text-left font-semibold text-slate-900">
                Customer wallets
              </th>
              <td className="py-1.5 text-right font-mono font-semibold">{exactUsdt(books.customerBalancesUsdt)}</td>
            </tr>
            {books.houseAccounts.map((account) => (
              <tr key={account.kind}>
                <th scope="row" className="py-1.5 text-left font-normal text-slate-600">
                  {HOUSE_ACCOUNT_LABELS[account.kind]}
                </th>
                <td className="py-1.5 text-right font-mono text-slate-700">{exactUsdt(account.balanceUsdt)}</td>
              </tr>
            ))}
            <tr>
              <th scope="row" className="py-1.5 text-left font-semibold text-slate-900">
                Sum of all accounts
              </th>
              <td className={cn('py-1.5 text-right font-mono font-semibold', books.balanced ? 'text-emerald-700' : 'text-red-700')}>
                {exactUsdt(books.differenceUsdt)}
              </td>
            </tr>
          </tbody>
        </table>
        <p className="text-xs text-slate-500">
          Money enters through deposits and rewards (negative house balances) and waits or leaves through the others; every movement is double-entry, so all
          accounts add up to zero.
        </p>
      </Card>
    </Section>
  );
}

function OpenBatches({ figures }: { figures: AdminDashboard }) {
  return (
    <Section id="batches-heading" title="Payout batches in progress">
      {figures.openPayoutBatches.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white px-4 py-6 text-center text-sm text-slate-500">
          No payout batch is waiting for the bank’s results.
        </p>
      ) : (
        <ul className="flex flex-col gap-2">
          {figures.openPayoutBatches.map((batch) => {
            const content = (
              <>
                <span className="min-w-0 flex-1">
                  <span className="block font-medium text-slate-900">Batch of {shortDateTimeText(batch.createdAt)}</span>
                  <span className="block text-sm text-slate-600">
                    {batch.processingCount} of {batch.count} waiting, {inrText(batch.processingInr)} of {inrText(batch.totalInr)}
                  </span>
                  <span className="block text-xs font-medium text-amber-700">Open for {ageText(batch.createdAt, figures.generatedAt)}</span>
                </span>
                <ChevronRight className="size-4 shrink-0 text-slate-400" aria-hidden />
              </>
            );
            const className = 'flex items-center gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm';
            return (
              <li key={batch.id}>
                <Link to={`/admin/payouts/${batch.id}`} className={`${className} hover:border-brand-500`}>
                  {content}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </Section>
  );
}

const SETTINGS_CARD = (
  <NavigationCard to="/admin/settings" title="Admin Settings" description="Rates, wallet addresses, QR codes, app download" icon={<Settings />} />
);

/** The operator's dashboard: queues, today's payouts, the books. Only admins load it (the API refuses anyone else). */
function OperatorDashboard() {
  const dashboard = useAdminDashboard();
  return (
    <>
      {dashboard.isPending && <LoadingState text="Loading dashboard..." />}
      {dashboard.isError && (
        <ErrorState
          title="Unable to load dashboard data"
          message={errorMessage(dashboard.error, 'Please check your connection and try again.')}
          onRetry={() => void dashboard.refetch()}
        />
      )}
      <PendingChangesPanel />
      <StuckPayoutsAlert />
      {dashboard.data && (
        <>
          <Queues figures={dashboard.data} />
          <div className="grid gap-4 lg:grid-cols-2">
            <div className="flex flex-col gap-4">
              <Today figures={dashboard.data} />
              <OpenBatches figures={dashboard.data} />
            </div>
            <Books figures={dashboard.data} />
          </div>
        </>
      )}
      <Section id="manage-heading" title="Manage">
        <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          <NavigationCard to="/admin/users" title="User Management" description="Find users, set VIP level and role, view transactions" icon={<Users />} />
          <NavigationCard
            to="/admin/transactions"
            title="Transaction Management"
            description="Approve or reject deposits, withdrawals and transfers"
            icon={<Receipt />}
          />
          <NavigationCard to="/admin/payouts" title="Payouts" description="Payout batches: bank files and the bank’s results" icon={<Wallet />} />
          {SETTINGS_CARD}
          <NavigationCard to="/admin/audit-log" title="Audit Log" description="Who did what, and when" icon={<ClipboardList />} />
          <NavigationCard to="/admin/deposit-keys" title="Deposit Keys" description="Extended public keys for customers' own addresses" icon={<KeyRound />} />
        </div>
      </Section>
    </>
  );
}

export default function AdminDashboardPage() {
  // The admin area's route guard has loaded the caller. A VIP customer gets the spec's card to the
  // settings and none of the operator's figures (decision 040); the figures are never requested.
  const isAdmin = useCanReadOperatorFigures();
  return (
    <AdminPage title="Admin Dashboard" backTo="/dashboard">
      {isAdmin ? (
        <OperatorDashboard />
      ) : (
        <>
          <Alert variant="info">
            You have read-only access as a VIP member: you can view the rates, wallet addresses and app download, but only admins can make changes.
          </Alert>
          <Section id="manage-heading" title="Manage">
            <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">{SETTINGS_CARD}</div>
          </Section>
        </>
      )}
    </AdminPage>
  );
}
