import { AppPage } from '../../components/layout/app-page.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';

export default function WalletPage() {
  return (
    <AppPage title="Wallet" backTo="/dashboard">
      <Card>
        <CardHeader>
          <CardTitle>Wallet</CardTitle>
        </CardHeader>
        <CardContent className="text-sm text-slate-600">This page is being built.</CardContent>
      </Card>
    </AppPage>
  );
}
