import { AppPage } from '../../components/layout/app-page.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';

export default function PrivacyPage() {
  return (
    <AppPage title="Privacy Policy" backTo="/">
      <Card>
        <CardHeader>
          <CardTitle>Privacy Policy</CardTitle>
        </CardHeader>
        <CardContent className="text-sm text-slate-600">This page is being built.</CardContent>
      </Card>
    </AppPage>
  );
}
