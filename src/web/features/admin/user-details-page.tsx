import { AppPage } from '../../components/layout/app-page.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';

export default function UserDetailsPage() {
  return (
    <AppPage title="User Details" backTo="/admin/users">
      <Card>
        <CardHeader>
          <CardTitle>User Details</CardTitle>
        </CardHeader>
        <CardContent className="text-sm text-slate-600">This page is being built.</CardContent>
      </Card>
    </AppPage>
  );
}
