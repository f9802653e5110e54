import { ChevronRight, History, IdCard, KeyRound, Landmark, LockKeyhole, LogOut, Users } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatUsdtExact, usdtMicrosFromWire } from '#shared/money';
import { NotificationPreferencesCard } from '../notifications/index.ts';
import { AppPage } from '../shell/index.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { ConfirmDialog, Dialog, DialogContent } from '../../components/ui/dialog.tsx';
import { initialsOf, maskPhone } from '../../lib/utils.ts';
import { useMe } from '../../lib/session.ts';
import { useLogOut } from '../auth/index.ts';
import { ChangePinForm } from '../pin/index.ts';
import { ContactChecksCard } from '../contact-verification/index.ts';
import { AccountDetailsCard } from './account-details-card.tsx';
import { ChangePasswordForm } from './change-password-form.tsx';
import { CloseAccountCard } from './close-account-card.tsx';
import { LanguageCard } from './language-card.tsx';
import { PanCard } from './pan-card.tsx';
import { PendingTotals } from './pending-totals.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

function MenuRow({ icon, label, to, onClick }: { icon: ReactNode; label: string; to?: string; onClick?: () => void }) {
  const content = (
    <>
      <span className="flex items-center gap-3">
        {icon}
        {label}
      </span>
      <ChevronRight className="size-4 text-slate-400" aria-hidden />
    </>
  );
  const className = 'flex w-full items-center justify-between px-4 py-3 text-left text-sm font-medium hover:bg-slate-50';
  return to ? (
    <Link to={to} className={className}>
      {content}
    </Link>
  ) : (
    <button type="button" onClick={onClick} className={className}>
      {content}
    </button>
  );
}

/** The balance, what of it is available and pending, and the ways to add or take out. */
function ProfileBalanceCard({ balanceUsdt }: { balanceUsdt: string }) {
  return (
    <Card>
      <CardContent className="flex flex-col gap-4 pt-5">
        <div>
          <p className="text-sm text-slate-500">{t('profile.totalBalance')}</p>
          <p className="break-words text-3xl font-bold">{formatUsdtExact(usdtMicrosFromWire(balanceUsdt))} USDT</p>
        </div>
        <dl className="grid grid-cols-3 gap-2 text-sm">
          <div>
            <dt className="text-slate-500">{t('profile.available')}</dt>
            <dd className="break-words font-semibold">{formatUsdtExact(usdtMicrosFromWire(balanceUsdt))} USDT</dd>
          </div>
          <PendingTotals />
        </dl>
        <div className="grid grid-cols-2 gap-3">
          <Button asChild>
            <Link to="/wallet/deposit">{t('wallet.deposit')}</Link>
          </Button>
          <Button variant="outline" asChild>
            <Link to="/wallet/withdraw">{t('wallet.withdraw')}</Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

export default function ProfilePage() {
  const me = useMe();
  const logOut = useLogOut();
  const [changingPin, setChangingPin] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  const [confirmingLogout, setConfirmingLogout] = useState(false);
  const user = me.data;
  if (!user) return null;

  return (
    <AppPage title={t('shell.profile')} backTo="/dashboard">
      <Card>
        <CardContent className="flex items-center gap-4 pt-5">
          <span className="flex size-14 items-center justify-center rounded-full bg-brand-700 text-lg font-bold text-white">{initialsOf(user.name)}</span>
          <div className="min-w-0">
            <p className="text-lg font-semibold">{user.name}</p>
            <p className="break-all text-sm text-slate-600">{user.email}</p>
            <p className="text-sm text-slate-500">{maskPhone(user.phone)}</p>
          </div>
        </CardContent>
      </Card>
      <ProfileBalanceCard balanceUsdt={user.balanceUsdt} />
      <Card className="divide-y divide-slate-100 overflow-hidden">
        <MenuRow icon={<KeyRound className="size-5 text-brand-700" />} label={t('profile.changePin')} onClick={() => setChangingPin(true)} />
        <MenuRow icon={<LockKeyhole className="size-5 text-brand-700" />} label={t('profile.changePassword')} onClick={() => setChangingPassword(true)} />
        <MenuRow icon={<Users className="size-5 text-brand-700" />} label={t('profile.referral')} to="/referral-vip" />
        <MenuRow icon={<History className="size-5 text-brand-700" />} label={t('profile.history')} to="/wallet/history" />
        <MenuRow icon={<Landmark className="size-5 text-brand-700" />} label={t('profile.bankAccounts')} to="/bank-accounts" />
        <MenuRow icon={<IdCard className="size-5 text-brand-700" />} label={t('profile.kyc')} to="/kyc" />
        <MenuRow icon={<LogOut className="size-5 text-red-600" />} label={t('profile.logout')} onClick={() => setConfirmingLogout(true)} />
      </Card>
      <LanguageCard />
      <AccountDetailsCard user={user} />
      <ContactChecksCard />
      <PanCard maskedPan={user.pan} />
      <NotificationPreferencesCard />
      <CloseAccountCard />
      <Dialog open={changingPin} onOpenChange={setChangingPin}>
        <DialogContent title={t('profile.changePin')} description={t('profile.changePinDescription')}>
          <ChangePinForm onDone={() => setChangingPin(false)} />
        </DialogContent>
      </Dialog>
      <Dialog open={changingPassword} onOpenChange={setChangingPassword}>
        <DialogContent title={t('profile.changePassword')} description={t('profile.changePasswordDescription')}>
          <ChangePasswordForm onDone={() => setChangingPassword(false)} />
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={confirmingLogout}
        onOpenChange={setConfirmingLogout}
        title={t('shell.logOutTitle')}
        description={t('shell.logOutQuestion')}
        confirmLabel={t('shell.logOutConfirm')}
        onConfirm={() => void logOut()}
      />
    </AppPage>
  );
}
