import { AppPage } from '../../components/layout/app-page.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';

export default function HistoryPage() {
  return (
    <AppPage title="Transaction History" backTo="/wallet">
      <Card>
        <CardHeader>
          <CardTitle>Transaction History</CardTitle>
        </CardHeader>
        <CardContent className="text-sm text-slate-600">This page is being built.</CardContent>
      </Card>
    </AppPage>
  );
}
