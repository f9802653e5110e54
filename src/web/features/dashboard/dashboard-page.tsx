import { ArrowDownToLine, ArrowUpFromLine, UserPlus } from 'lucide-react';
import { Link } from 'react-router';
import { AppPage } from '../../components/layout/app-page.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { useMe } from '../auth/api.ts';
import { Converter } from '../rates/converter.tsx';
import { RateCard } from '../rates/rate-card.tsx';
import { TransactionFlowNote } from '../wallet/transaction-flow-note.tsx';
import { AdminWalletCard } from './admin-wallet-card.tsx';

const QUICK_ACTIONS = [
  { to: '/wallet/deposit', label: 'Deposit USDT', icon: ArrowDownToLine },
  { to: '/wallet/withdraw', label: 'Withdraw INR', icon: ArrowUpFromLine },
  { to: '/referral-vip', label: 'Invite', icon: UserPlus },
];

export default function DashboardPage() {
  const me = useMe();
  return (
    <AppPage>
      <Card>
        <CardHeader>
          <CardTitle>Welcome, {me.data?.name}</CardTitle>
        </CardHeader>
        <CardContent>
          <nav aria-label="Quick actions" className="grid grid-cols-3 gap-3">
            {QUICK_ACTIONS.map(({ to, label, icon: Icon }) => (
              <Link
                key={to}
                to={to}
                className="flex flex-col items-center gap-2 rounded-xl bg-brand-50 p-3 text-center text-sm font-medium text-brand-800 hover:bg-brand-100"
              >
                <Icon className="size-6" aria-hidden />
                {label}
              </Link>
            ))}
          </nav>
        </CardContent>
      </Card>
      <RateCard />
      <Converter />
      <TransactionFlowNote />
      {me.data?.role === 'admin' && <AdminWalletCard />}
    </AppPage>
  );
}
