import { Headset, Home, Shield, Upload, User, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { cn } from '../../lib/utils.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';

const itemClass = 'flex flex-1 flex-col items-center gap-0.5 py-2 text-xs font-medium';

function Item({ to, icon, label, end }: { to: string; icon: ReactNode; label: string; end?: boolean }) {
  return (
    <NavLink to={to} end={end ?? false} className={({ isActive }) => cn(itemClass, isActive ? 'text-brand-700' : 'text-slate-500 hover:text-slate-800')}>
      {icon}
      {label}
    </NavLink>
  );
}

/**
 * The shell feature tells what to show: the support chat's link (absent without a support number) and whether the
 * user may open the admin area. VIP is a rate tier, not an operator (decision 040): Admin and Upload are the admin role's.
 */
export function BottomNav({ supportLink, showAdmin }: { supportLink: string | undefined; showAdmin: boolean }) {
  return (
    <nav aria-label={t('shell.mainNav')} className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white pb-[env(safe-area-inset-bottom)]">
      <div className="mx-auto flex max-w-3xl">
        <Item to="/dashboard" icon={<Home className="size-5" />} label={t('shell.home')} />
        <Item to="/wallet" icon={<Wallet className="size-5" />} label={t('shell.wallet')} />
        {/* Without a support number there is nothing to open: the item is left out rather than shown greyed. */}
        {supportLink && (
          <a href={supportLink} target="_blank" rel="noopener noreferrer" className={cn(itemClass, 'text-slate-500 hover:text-slate-800')}>
            <Headset className="size-5" />
            {t('shell.support')}
          </a>
        )}
        {showAdmin && <Item to="/admin" end icon={<Shield className="size-5" />} label="Admin" />}
        {showAdmin && <Item to="/admin/settings" icon={<Upload className="size-5" />} label="Upload" />}
        <Item to="/profile" icon={<User className="size-5" />} label={t('shell.profile')} />
      </div>
    </nav>
  );
}
