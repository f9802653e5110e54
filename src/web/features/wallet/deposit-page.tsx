import { AppPage } from '../../components/layout/app-page.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';

export default function DepositPage() {
  return (
    <AppPage title="Deposit USDT" backTo="/wallet">
      <Card>
        <CardHeader>
          <CardTitle>Deposit USDT</CardTitle>
        </CardHeader>
        <CardContent className="text-sm text-slate-600">This page is being built.</CardContent>
      </Card>
    </AppPage>
  );
}
