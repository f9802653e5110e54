import { CheckCircle2, CircleAlert, CircleDashed, Clock3, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import type { KycCheck, KycCheckState, KycStatus } from '#shared/contracts/kyc';
import { AppPage } from '../shell/index.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useKycStatus } from './api.ts';
import { ConsentStep, useConsentAccepted } from '../legal/index.ts';
import { PanCardPhoto, PanForm, TaxResidenceForm } from './kyc-forms.tsx';
import { LevelTwoForm } from './level-two-form.tsx';
import { checkText, missingText } from './kyc-texts.ts';
import { currentLanguage, translate as t, type MessageKey } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

/** The name-change sentence the KYC service writes in English; an admin's own rejection reason is shown as typed. */
const NAME_CHANGED = 'Your name changed since the PAN was verified: it no longer matches the PAN.';

function panCheckMessage(state: KycCheckState, rejectionReason: string | null): string {
  if (state !== 'rejected' || rejectionReason === null) return checkText('pan', state);
  return rejectionReason === NAME_CHANGED ? t('kyc.nameChanged') : rejectionReason;
}

const STATE_LABELS: Record<KycCheckState, { label: MessageKey; tone: 'success' | 'warning' | 'danger' | 'default'; icon: ReactNode }> = {
  verified: { label: 'kyc.stateDone', tone: 'success', icon: <CheckCircle2 className="size-5 text-emerald-600" aria-hidden /> },
  pending: { label: 'kyc.stateBeingChecked', tone: 'warning', icon: <Clock3 className="size-5 text-amber-600" aria-hidden /> },
  rejected: { label: 'kyc.stateNotAccepted', tone: 'danger', icon: <XCircle className="size-5 text-red-600" aria-hidden /> },
  missing: { label: 'kyc.stateMissing', tone: 'warning', icon: <CircleAlert className="size-5 text-amber-600" aria-hidden /> },
  not_available: { label: 'kyc.stateNotAvailable', tone: 'default', icon: <CircleDashed className="size-5 text-slate-400" aria-hidden /> },
};

function CheckRow({
  check,
  title,
  state,
  message,
  children,
}: {
  check: KycCheck;
  title: string;
  state: KycCheckState;
  message?: string;
  children?: ReactNode;
}) {
  const shown = STATE_LABELS[state];
  return (
    <li className="flex flex-col gap-2 py-3" data-testid={`kyc-check-${check}`}>
      <div className="flex items-start justify-between gap-3">
        <span className="flex items-start gap-2">
          {shown.icon}
          <span>
            <span className="block font-medium">{title}</span>
            <span className="block text-sm text-slate-600">{message ?? checkText(check, state)}</span>
          </span>
        </span>
        <Badge tone={shown.tone}>{t(shown.label)}</Badge>
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
  const panMessage = panCheckMessage(pan.state, pan.rejectionReason);
  return (
    <ul className="divide-y divide-slate-100">
      <CheckRow check="email" title={t('kyc.email')} state={email.state} />
      <CheckRow check="mobile" title={t('kyc.mobile')} state={mobile.state} />
      <CheckRow check="pan" title={t('kyc.panLabel')} state={pan.state} message={pan.pan === null ? panMessage : `${pan.pan}: ${panMessage}`}>
        {pan.aadhaarLinked === false && <Alert variant="info">{t('kyc.inoperative')}</Alert>}
        {pan.cardImage === 'needed' && <PanCardPhoto requestReason={pan.cardRequestReason} />}
        {pan.cardImage === 'received' && <p className="text-sm text-slate-600">{t('kyc.panCardReceived')}</p>}
        {panOpen && <PanForm />}
      </CheckRow>
      <CheckRow check="taxResidence" title={t('kyc.taxResidence')} state={taxResidence.state}>
        {(taxResidence.state !== 'verified' || refreshing) && <TaxResidenceForm />}
      </CheckRow>
    </ul>
  );
}

/** Level 2's state in words, and the form while the customer can send it (decision 050). */
function LevelTwoSection({ kyc }: { kyc: KycStatus }) {
  const { status, reason } = kyc.levelTwo;
  return (
    <div className="flex flex-col gap-3" data-testid="kyc-level-two">
      {status === 'pending_review' && <Alert variant="info">{t('kyc.l2Waiting')}</Alert>}
      {status === 'rejected' && <Alert variant="destructive">{t('kyc.l2Rejected', { reason: reason ?? '' })}</Alert>}
      {status === 'resubmit_requested' && <Alert variant="info">{t('kyc.l2AskedAgain', { reason: reason ?? '' })}</Alert>}
      {kyc.level === 1 && (status === 'none' || status === 'rejected' || status === 'resubmit_requested') && <LevelTwoForm />}
    </div>
  );
}

function KycRefresh({ refresh }: { refresh: NonNullable<KycStatus['refresh']> }) {
  const due = new Date(refresh.dueAt).toLocaleDateString(currentLanguage() === 'hi' ? 'hi-IN' : 'en-IN', { day: 'numeric', month: 'long', year: 'numeric' });
  return (
    <Alert variant={refresh.overdue ? 'destructive' : 'info'} data-testid="kyc-refresh">
      <p className="font-medium">{t('kyc.refreshDue', { date: due })}</p>
      <p>{localizeMessage(refresh.message)}</p>
    </Alert>
  );
}

/** The customer's level, what the next one unlocks, what holds the money, what is missing and the level's limits. */
function LevelSummary({ kyc }: { kyc: KycStatus }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          {t('kyc.yourLevel')} <span data-testid="kyc-level">{kyc.level}</span>
        </CardTitle>
        {kyc.nextLevelUnlocks && <CardDescription>{kyc.level === 0 ? t('kyc.unlocks1') : t('kyc.unlocks2')}</CardDescription>}
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        {kyc.accountFrozenMessage && (
          <Alert variant="destructive" data-testid="kyc-frozen">
            {localizeMessage(kyc.accountFrozenMessage)}
          </Alert>
        )}
        {kyc.level === 0 && <Alert variant="info">{t('kyc.levelZeroHolds')}</Alert>}
        {kyc.refresh && <KycRefresh refresh={kyc.refresh} />}
        {kyc.missing.length > 0 && (
          <div>
            <p className="font-medium">{t('kyc.stillMissing', { level: kyc.nextLevel ?? '' })}</p>
            <ul className="ml-5 list-disc" data-testid="kyc-missing">
              {kyc.missing.map((item) => (
                <li key={item.check}>{missingText(item.check)}</li>
              ))}
            </ul>
          </div>
        )}
        {(kyc.levelLimits.dailyInr !== null || kyc.levelLimits.monthlyInr !== null) && (
          <p className="text-slate-600">
            {t('kyc.levelLimits', {
              daily: kyc.levelLimits.dailyInr ?? t('kyc.noLimit'),
              monthly: kyc.levelLimits.monthlyInr ?? t('kyc.noLimit'),
            })}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

export default function KycPage() {
  const kyc = useKycStatus();
  // The consent and privacy notice is the first step: the checks show once it is accepted (issue 32).
  const consentAccepted = useConsentAccepted();
  return (
    <AppPage title={t('kyc.title')} backTo="/profile" documentTitle={t('kyc.documentTitle')}>
      {kyc.isPending && <Spinner label={t('kyc.loading')} />}
      {kyc.isError && <LoadFailed message={t('kyc.loadFailed')} onRetry={() => void kyc.refetch()} />}
      {kyc.data && <ConsentStep />}
      {kyc.data && consentAccepted && (
        <>
          <LevelSummary kyc={kyc.data} />
          <Card>
            <CardHeader>
              <CardTitle>{t('kyc.level1')}</CardTitle>
              <CardDescription>{t('kyc.unlocks1')}</CardDescription>
            </CardHeader>
            <CardContent>
              <LevelOneChecks kyc={kyc.data} />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t('kyc.level2')}</CardTitle>
              <CardDescription>{t('kyc.unlocks2')}</CardDescription>
            </CardHeader>
            <CardContent>
              <ul className="divide-y divide-slate-100">
                <CheckRow check="secondDocument" title={t('kyc.secondDocument')} state={kyc.data.checks.secondDocument.state} />
                <CheckRow check="selfie" title={t('kyc.selfie')} state={kyc.data.checks.selfie.state} />
                <CheckRow check="address" title={t('kyc.address')} state={kyc.data.checks.address.state} />
              </ul>
              <LevelTwoSection kyc={kyc.data} />
            </CardContent>
          </Card>
        </>
      )}
    </AppPage>
  );
}
