import { ClipboardList, IdCard, KeyRound, Landmark, LayoutDashboard, Receipt, Scale, Settings, Users, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { AppFooter } from '../../../components/layout/app-footer.tsx';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { cn } from '../../../lib/utils.ts';
import { useMe } from '../../../lib/session.ts';
import { ShellBottomNav, ShellHeader } from '../../shell/index.ts';

interface DeskLink {
  to: string;
  label: string;
  icon: ReactNode;
  /** Pages the admin role alone may open; VIP-level readers see only the others. */
  adminOnly: boolean;
  /** Active only on this exact path (the dashboard would otherwise match every admin page). */
  end?: boolean;
}

export const DESK_LINKS: readonly DeskLink[] = [
  { to: '/admin', label: 'Dashboard', icon: <LayoutDashboard />, adminOnly: false, end: true },
  { to: '/admin/users', label: 'Users', icon: <Users />, adminOnly: true },
  { to: '/admin/kyc', label: 'KYC', icon: <IdCard />, adminOnly: true },
  { to: '/admin/transactions', label: 'Transactions', icon: <Receipt />, adminOnly: true },
  { to: '/admin/payouts', label: 'Payouts', icon: <Wallet />, adminOnly: true },
  { to: '/admin/payees', label: 'Payee review', icon: <Landmark />, adminOnly: true },
  { to: '/admin/settings', label: 'Settings', icon: <Settings />, adminOnly: false },
  { to: '/admin/audit-log', label: 'Audit log', icon: <ClipboardList />, adminOnly: true },
  { to: '/admin/reconciliation', label: 'Reconciliation', icon: <Scale />, adminOnly: true },
  { to: '/admin/deposit-keys', label: 'Deposit keys', icon: <KeyRound />, adminOnly: true },
];

/** The desk's side navigation, shown from the lg breakpoint: real links, the current page marked. */
function DeskNavigation() {
  const me = useMe();
  const isAdmin = me.data?.role === 'admin';
  return (
    <nav aria-label="Admin" className="hidden lg:block">
      <ul className="sticky top-32 flex flex-col gap-1">
        {DESK_LINKS.filter((link) => isAdmin || !link.adminOnly).map((link) => (
          <li key={link.to}>
            <NavLink
              to={link.to}
              end={link.end ?? false}
              className={({ isActive }) =>
                cn(
                  'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium [&_svg]:size-4 [&_svg]:shrink-0',
                  isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
                )
              }
            >
              {link.icon}
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The frame of every admin page. Phones and tablets get the customer frame (header, cards, the bottom
 * bar); from lg the desk uses the width: a side navigation instead of the bottom bar, content at full width.
 */
export function AdminPage({ title, backTo, children }: { title: string; backTo: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <div className="min-h-screen">
      <ShellHeader title={title} backTo={backTo} wide />
      <div className="lg:grid lg:grid-cols-[13rem_minmax(0,1fr)] lg:gap-6 lg:px-6">
        <DeskNavigation />
        <main id="main" className="mx-auto flex max-w-5xl flex-col gap-4 px-4 py-4 lg:mx-0 lg:max-w-none lg:px-0">
          {children}
        </main>
      </div>
      <AppFooter />
      <div className="lg:hidden">
        <ShellBottomNav />
      </div>
    </div>
  );
}
