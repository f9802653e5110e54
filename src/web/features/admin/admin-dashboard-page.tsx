import { ArrowDownToLine, ArrowLeftRight, ArrowUpFromLine, ChevronRight, ClipboardList, Receipt, Settings, Users, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { AdminDashboard } from '../../../shared/contracts/admin.ts';
import { AppPage } from '../../components/layout/app-page.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Card } from '../../components/ui/card.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useAdminDashboard } from './api.ts';
import { ErrorState, LoadingState } from './components/list-states.tsx';
import { inrText, usdtText } from './format.ts';

function Figure({ label, value, detail, to, icon }: { label: string; value: string; detail?: string; to?: string; icon: ReactNode }) {
  const body = (
    <>
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700 [&_svg]:size-5">{icon}</span>
      <span className="min-w-0 flex-1">
        <span className="block text-sm text-slate-500">{label}</span>
        <span className="block text-lg font-semibold text-slate-900">{value}</span>
        {detail && <span className="block text-sm text-slate-600">{detail}</span>}
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

function pendingLabel(count: number): string {
  return count === 1 ? '1 pending' : `${count} pending`;
}

function Figures({ figures }: { figures: AdminDashboard }) {
  const queueLink = (tab: string) => (figures.canManage ? `/admin/transactions?tab=${tab}&status=pending` : undefined);
  const links = {
    deposits: queueLink('deposits'),
    withdrawals: queueLink('withdrawals'),
    transfers: queueLink('transfers'),
    users: figures.canManage ? '/admin/users' : undefined,
  };
  return (
    <section aria-labelledby="waiting-heading" className="flex flex-col gap-3">
      <h2 id="waiting-heading" className="text-base font-semibold text-slate-900">
        Waiting for approval
      </h2>
      <div className="grid gap-3 sm:grid-cols-2">
        <Figure
          label="Pending deposits"
          value={pendingLabel(figures.pendingDeposits.count)}
          detail={usdtText(figures.pendingDeposits.totalUsdt)}
          icon={<ArrowDownToLine />}
          {...(links.deposits ? { to: links.deposits } : {})}
        />
        <Figure
          label="Pending withdrawals"
          value={pendingLabel(figures.pendingWithdrawals.count)}
          detail={`${inrText(figures.pendingWithdrawals.totalInr)} (${usdtText(figures.pendingWithdrawals.totalUsdt)})`}
          icon={<ArrowUpFromLine />}
          {...(links.withdrawals ? { to: links.withdrawals } : {})}
        />
        <Figure
          label="Pending transfers"
          value={pendingLabel(figures.pendingTransfers.count)}
          detail={usdtText(figures.pendingTransfers.totalUsdt)}
          icon={<ArrowLeftRight />}
          {...(links.transfers ? { to: links.transfers } : {})}
        />
        <Figure
          label="Customer balances"
          value={usdtText(figures.customerBalancesUsdt)}
          detail={figures.userCount === 1 ? '1 user' : `${figures.userCount} users`}
          icon={<Wallet />}
          {...(links.users ? { to: links.users } : {})}
        />
      </div>
    </section>
  );
}

export default function AdminDashboardPage() {
  const dashboard = useAdminDashboard();
  const canManage = dashboard.data?.canManage ?? false;

  return (
    <AppPage title="Admin Dashboard" backTo="/dashboard">
      {dashboard.isPending && <LoadingState text="Loading dashboard..." />}
      {dashboard.isError && (
        <ErrorState
          title="Unable to load dashboard data"
          message={errorMessage(dashboard.error, 'Please check your connection and try again.')}
          onRetry={() => void dashboard.refetch()}
        />
      )}
      {dashboard.data && <Figures figures={dashboard.data} />}
      {dashboard.data && !canManage && (
        <Alert variant="info">You have read-only access as a VIP member: you can view these figures and the settings, but only admins can make changes.</Alert>
      )}

      <section aria-labelledby="manage-heading" className="flex flex-col gap-3">
        <h2 id="manage-heading" className="text-base font-semibold text-slate-900">
          Manage
        </h2>
        <div className="grid gap-3 sm:grid-cols-2">
          {canManage && <NavigationCard to="/admin/users" title="User Management" description="Find users, set VIP level and role, view transactions" icon={<Users />} />}
          {canManage && (
            <NavigationCard to="/admin/transactions" title="Transaction Management" description="Approve or reject deposits, withdrawals and transfers" icon={<Receipt />} />
          )}
          <NavigationCard to="/admin/settings" title="Admin Settings" description="Rates, wallet addresses, QR codes, app download" icon={<Settings />} />
          {canManage && <NavigationCard to="/admin/audit-log" title="Audit Log" description="Who did what, and when" icon={<ClipboardList />} />}
        </div>
      </section>
    </AppPage>
  );
}
