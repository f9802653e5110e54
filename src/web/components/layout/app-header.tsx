import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Bell, LogOut, RefreshCw } from 'lucide-react';
import { useState, type MouseEvent, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { Me } from '#shared/contracts/auth';
import { formatUsdtExact, usdtMicrosFromWire } from '#shared/money';
import { cn, initialsOf, maskPhone } from '../../lib/utils.ts';
import { Button } from '../ui/button.tsx';
import { ConfirmDialog } from '../ui/dialog.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

/**
 * Two rows, so that nothing is squeezed on a phone: who is signed in with the
 * balance, then the page's back button and title with the actions (notifications,
 * refresh, sign-out). The actions sit beside the title, not the name: beside the
 * name and a five-digit balance they left a 320 px phone no room for the name at all.
 * `wide` lets the admin desk use the whole width on large screens. What the header shows of the session (the user,
 * the notification bell, signing out) comes from the shell feature, which reads it.
 */
export function AppHeader({
  title,
  backTo,
  wide = false,
  user,
  notificationBell,
  onLogOut,
}: {
  title?: string | undefined;
  backTo?: string | undefined;
  wide?: boolean;
  /** The signed-in user, once the session is read. */
  user: Me | null | undefined;
  /** Shown beside the title for a signed-in user: a NotificationBell with the unread count. */
  notificationBell: ReactNode;
  onLogOut: () => Promise<void>;
}) {
  const queryClient = useQueryClient();
  const [confirmingLogout, setConfirmingLogout] = useState(false);
  const goBack = useGoBack(backTo);

  const refresh = async () => {
    try {
      await queryClient.refetchQueries({ type: 'active' });
      toast.success(t('shell.dataRefreshed'));
    } catch {
      toast.error(t('rates.refreshFailed'));
    }
  };

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      <SignedInRow user={user} wide={wide} />
      <ConfirmDialog
        open={confirmingLogout}
        onOpenChange={setConfirmingLogout}
        title={t('shell.logOutTitle')}
        description={t('shell.logOutQuestion')}
        confirmLabel={t('shell.logOutConfirm')}
        onConfirm={() => void onLogOut()}
      />
      <div className={cn('mx-auto flex max-w-3xl items-center gap-1 px-2 pb-2', wide && 'lg:max-w-none lg:px-4')}>
        {backTo && (
          <Button variant="ghost" size="icon" asChild>
            <Link to={backTo} aria-label={t('shell.back')} onClick={goBack}>
              <ArrowLeft />
            </Link>
          </Button>
        )}
        {/* Two lines rather than an ellipsis: beside three actions a long title needs them on a narrow phone. */}
        <h1 className={`line-clamp-2 min-w-0 flex-1 text-base leading-5 font-bold break-words sm:text-lg sm:leading-6 ${backTo ? '' : 'pl-2'}`}>
          {title ?? t('shell.dashboard')}
        </h1>
        {user && notificationBell}
        <Button variant="ghost" size="icon" className="shrink-0" onClick={() => void refresh()} aria-label={t('shell.refresh')}>
          <RefreshCw />
        </Button>
        <Button variant="ghost" size="icon" className="shrink-0" onClick={() => setConfirmingLogout(true)} aria-label={t('shell.signOut')}>
          <LogOut />
        </Button>
      </div>
    </header>
  );
}

/** Who is signed in: the initials linking to the profile, the name and masked phone, and the balance linking to the wallet. */
function SignedInRow({ user, wide }: { user: Me | null | undefined; wide: boolean }) {
  return (
    <div className={cn('mx-auto flex max-w-3xl items-center gap-2 px-3 pt-3 pb-2 sm:gap-3 sm:px-4', wide && 'lg:max-w-none lg:px-6')}>
      {user && (
        <Link to="/profile" className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-700 text-sm font-bold text-white">
          {/* The link is named by its words, not by the initials it shows (axe: label-content-name-mismatch). */}
          <span aria-hidden="true">{initialsOf(user.name)}</span>
          <span className="sr-only">{t('shell.profile')}</span>
        </Link>
      )}
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-semibold">{user?.name}</p>
        {user && <p className="truncate text-xs text-slate-500">{maskPhone(user.phone)}</p>}
      </div>
      {user && (
        <Link
          to="/wallet"
          className="shrink-0 whitespace-nowrap rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-800 hover:bg-brand-100"
          data-testid="balance-chip"
          aria-label={t('shell.balanceChip', { amount: formatUsdtExact(usdtMicrosFromWire(user.balanceUsdt)) })}
        >
          {formatUsdtExact(usdtMicrosFromWire(user.balanceUsdt))} USDT
        </Link>
      )}
    </div>
  );
}

/**
 * The back arrow returns to the page the customer came from; opened directly
 * (a reload, a link from outside), it goes to the page's parent `backTo` instead.
 */
function useGoBack(backTo: string | undefined) {
  const location = useLocation();
  const navigate = useNavigate();
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (!backTo || location.key === 'default') return;
    event.preventDefault();
    void navigate(-1);
  };
}

/** The bell with the number of unread notifications; it opens the list. */
export function NotificationBell({ count }: { count: number }) {
  return (
    <Link
      to="/notifications"
      aria-label={count > 0 ? t('shell.notificationsUnread', { count }) : t('shell.notifications')}
      className="relative flex size-10 shrink-0 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100"
    >
      <Bell className="size-5" aria-hidden />
      {count > 0 && (
        <span
          data-testid="unread-count"
          className="absolute right-0.5 top-0.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs font-bold leading-5 text-white"
        >
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}
