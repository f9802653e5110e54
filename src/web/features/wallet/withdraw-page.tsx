import { AppPage } from '../../components/layout/app-page.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';

export default function WithdrawPage() {
  return (
    <AppPage title="Withdraw INR" backTo="/dashboard">
      <Card>
        <CardHeader>
          <CardTitle>Withdraw INR</CardTitle>
        </CardHeader>
        <CardContent className="text-sm text-slate-600">This page is being built.</CardContent>
      </Card>
    </AppPage>
  );
}
