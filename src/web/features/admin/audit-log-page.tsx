import { AppPage } from '../../components/layout/app-page.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';

export default function AuditLogPage() {
  return (
    <AppPage title="Audit Log" backTo="/admin">
      <Card>
        <CardHeader>
          <CardTitle>Audit Log</CardTitle>
        </CardHeader>
        <CardContent className="text-sm text-slate-600">This page is being built.</CardContent>
      </Card>
    </AppPage>
  );
}
