import { CheckCircle2, CircleAlert, CircleDashed, Clock3, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { KYC_TEXTS, type KycCheckState, type KycStatus } from '#shared/contracts/kyc';
import { AppPage } from '../../components/layout/app-page.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useKycStatus } from './api.ts';
import { PanForm, TaxResidenceForm } from './kyc-forms.tsx';

const STATE_LABELS: Record<KycCheckState, { label: string; tone: 'success' | 'warning' | 'danger' | 'default'; icon: ReactNode }> = {
  verified: { label: 'Done', tone: 'success', icon: <CheckCircle2 className="size-5 text-emerald-600" aria-hidden /> },
  pending: { label: 'Being checked', tone: 'warning', icon: <Clock3 className="size-5 text-amber-600" aria-hidden /> },
  rejected: { label: 'Not accepted', tone: 'danger', icon: <XCircle className="size-5 text-red-600" aria-hidden /> },
  missing: { label: 'Missing', tone: 'warning', icon: <CircleAlert className="size-5 text-amber-600" aria-hidden /> },
  not_available: { label: 'Not available yet', tone: 'default', icon: <CircleDashed className="size-5 text-slate-400" aria-hidden /> },
};

function CheckRow({ title, state, message, children }: { title: string; state: KycCheckState; message: string; children?: ReactNode }) {
  const shown = STATE_LABELS[state];
  return (
    <li className="flex flex-col gap-2 py-3" data-testid={`kyc-check-${title}`}>
      <div className="flex items-start justify-between gap-3">
        <span className="flex items-start gap-2">
          {shown.icon}
          <span>
            <span className="block font-medium">{title}</span>
            <span className="block text-sm text-slate-600">{message}</span>
          </span>
        </span>
        <Badge tone={shown.tone}>{shown.label}</Badge>
      </div>
      {children}
    </li>
  );
}

function LevelOneChecks({ kyc }: { kyc: KycStatus }) {
  const { email, mobile, pan, taxResidence } = kyc.checks;
  // From 14 days before the KYC refresh is due, the PAN and the tax residence are taken again (decision 047).
  const refreshing = kyc.refresh?.open === true;
  const panOpen = pan.state === 'missing' || pan.state === 'rejected' || refreshing;
  return (
    <ul className="divide-y divide-slate-100">
      <CheckRow title="E-mail" state={email.state} message={email.message} />
      <CheckRow title="Mobile number" state={mobile.state} message={mobile.message} />
      <CheckRow title="PAN" state={pan.state} message={pan.pan === null ? pan.message : `${pan.pan}: ${pan.message}`}>
        {pan.aadhaarLinked === false && (
          <Alert variant="info">This PAN is inoperative (not linked to Aadhaar): TDS on withdrawals is taken at the higher no-PAN rate until you link it.</Alert>
        )}
        {panOpen && <PanForm />}
      </CheckRow>
      <CheckRow title="Tax residence" state={taxResidence.state} message={taxResidence.message}>
        {(taxResidence.state !== 'verified' || refreshing) && <TaxResidenceForm />}
      </CheckRow>
    </ul>
  );
}

function KycRefresh({ refresh }: { refresh: NonNullable<KycStatus['refresh']> }) {
  const due = new Date(refresh.dueAt).toLocaleDateString('en-IN', { day: 'numeric', month: 'long', year: 'numeric' });
  return (
    <Alert variant={refresh.overdue ? 'destructive' : 'info'} data-testid="kyc-refresh">
      <p className="font-medium">KYC refresh due: {due}</p>
      <p>{refresh.message}</p>
    </Alert>
  );
}

export default function KycPage() {
  const kyc = useKycStatus();
  return (
    <AppPage title="KYC" backTo="/profile" documentTitle="KYC verification">
      {kyc.isPending && <Spinner label="Loading your KYC" />}
      {kyc.isError && <LoadFailed message="Your KYC status could not be loaded." onRetry={() => void kyc.refetch()} />}
      {kyc.data && (
        <>
          <Card>
            <CardHeader>
              <CardTitle>
                Your level: <span data-testid="kyc-level">{kyc.data.level}</span>
              </CardTitle>
              {kyc.data.nextLevelUnlocks && <CardDescription>{kyc.data.nextLevelUnlocks}</CardDescription>}
            </CardHeader>
            <CardContent className="flex flex-col gap-3 text-sm">
              {kyc.data.accountFrozenMessage && (
                <Alert variant="destructive" data-testid="kyc-frozen">
                  {kyc.data.accountFrozenMessage}
                </Alert>
              )}
              {kyc.data.level === 0 && <Alert variant="info">{KYC_TEXTS.levelZeroHolds}</Alert>}
              {kyc.data.refresh && <KycRefresh refresh={kyc.data.refresh} />}
              {kyc.data.missing.length > 0 && (
                <div>
                  <p className="font-medium">Still missing for level {kyc.data.nextLevel}:</p>
                  <ul className="ml-5 list-disc" data-testid="kyc-missing">
                    {kyc.data.missing.map((item) => (
                      <li key={item.check}>{item.message}</li>
                    ))}
                  </ul>
                </div>
              )}
              {(kyc.data.levelLimits.dailyInr !== null || kyc.data.levelLimits.monthlyInr !== null) && (
                <p className="text-slate-600">
                  Your level’s withdrawal limits: {kyc.data.levelLimits.dailyInr ?? 'no limit'} INR a day, {kyc.data.levelLimits.monthlyInr ?? 'no limit'} INR a month.
                </p>
              )}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Level 1</CardTitle>
              <CardDescription>{KYC_TEXTS.unlocks[1]}</CardDescription>
            </CardHeader>
            <CardContent>
              <LevelOneChecks kyc={kyc.data} />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Level 2</CardTitle>
              <CardDescription>{KYC_TEXTS.unlocks[2]}</CardDescription>
            </CardHeader>
            <CardContent>
              <ul className="divide-y divide-slate-100">
                <CheckRow title="Second identity document" state={kyc.data.checks.secondDocument.state} message={kyc.data.checks.secondDocument.message} />
                <CheckRow title="Live selfie" state={kyc.data.checks.selfie.state} message={kyc.data.checks.selfie.message} />
                <CheckRow title="Address" state={kyc.data.checks.address.state} message={kyc.data.checks.address.message} />
              </ul>
            </CardContent>
          </Card>
        </>
      )}
    </AppPage>
  );
}
