import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { freezeRequestSchema, RISK_CATEGORIES, riskCategoryRequestSchema, type AdminKycRecord, type RiskCategory } from '#shared/contracts/kyc';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Select } from '../../components/ui/select.tsx';
import { errorMessage } from '../../lib/api.ts';
import { adminKeys } from './api.ts';
import { DecisionDialog, type NoteField } from './components/decision-dialog.tsx';
import { ErrorState, LoadingState } from './components/list-states.tsx';
import { fullDateTimeText } from './format.ts';
import { setCustomerRisk, useCustomerKyc } from './kyc-api.ts';
import { KYC_CHECK_LABELS, KYC_STATE_LABELS, NAME_MATCH_TONES, RISK_LABELS } from './kyc-labels.ts';
import { type FreezeAction, useCustomerFreeze } from './use-customer-freeze.ts';

const FREEZE_REASON_FIELD: NoteField = {
  label: 'Reason',
  help: 'Kept in the audit log. The customer is told that the account is under review, not this reason.',
  maxLength: 500,
  multiline: true,
  schema: freezeRequestSchema.shape.reason,
};

function KycChecks({ kyc }: { kyc: AdminKycRecord }) {
  return (
    <ul className="flex flex-col gap-2" data-testid="user-kyc-checks">
      {kyc.checks.map((item) => (
        <li key={item.check} className="flex flex-col gap-0.5 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
          <span className="text-sm text-slate-500">{KYC_CHECK_LABELS[item.check]}</span>
          <span className="flex items-center gap-2 text-sm">
            <Badge tone={KYC_STATE_LABELS[item.state].tone}>{KYC_STATE_LABELS[item.state].label}</Badge>
            {item.at && <time dateTime={item.at}>{fullDateTimeText(item.at)}</time>}
          </span>
        </li>
      ))}
    </ul>
  );
}

function PanFacts({ pan }: { pan: AdminKycRecord['pan'] }) {
  if (pan.pan === null) return <p className="text-sm text-slate-600">No PAN submitted.</p>;
  return (
    <dl className="grid grid-cols-1 gap-1 text-sm sm:grid-cols-2">
      <dt className="text-slate-500">PAN</dt>
      <dd className="font-mono">{pan.pan}</dd>
      <dt className="text-slate-500">Registered name</dt>
      <dd>{pan.registeredName ?? 'Not known'}</dd>
      <dt className="text-slate-500">Name match</dt>
      <dd>
        {pan.nameMatch ? <Badge tone={NAME_MATCH_TONES[pan.nameMatch.verdict]}>{`${pan.nameMatch.verdict} (${pan.nameMatch.score})`}</Badge> : 'Not known'}
      </dd>
      <dt className="text-slate-500">Checked by</dt>
      <dd>{pan.checkedBy === null ? 'Not checked yet' : pan.checkedBy === 'cashfree' ? 'KYC provider (Cashfree)' : 'An admin'}</dd>
      {pan.aadhaarLinked === false && (
        <>
          <dt className="text-slate-500">Aadhaar link</dt>
          <dd className="text-amber-800">Inoperative: not linked to Aadhaar (no-PAN TDS rate)</dd>
        </>
      )}
      {pan.rejectionReason && (
        <>
          <dt className="text-slate-500">Rejected because</dt>
          <dd>{pan.rejectionReason}</dd>
        </>
      )}
    </dl>
  );
}

function RiskForm({ kyc, disabled }: { kyc: AdminKycRecord; disabled: boolean }) {
  const queryClient = useQueryClient();
  const [risk, setRisk] = useState<RiskCategory>(kyc.riskCategory);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    const parsed = riskCategoryRequestSchema.safeParse({ riskCategory: risk });
    if (!parsed.success) return;
    setSaving(true);
    try {
      const answer = await setCustomerRisk(kyc.userId, parsed.data.riskCategory);
      toast.success(answer.message);
    } catch (error) {
      toast.error('The risk category could not be saved', { description: errorMessage(error, 'Please try again.') });
    } finally {
      setSaving(false);
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    }
  };
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
      <FormField label="Risk category" help="High risk refreshes KYC every 6 months, the others every 12 (settings).">
        <Select value={risk} onChange={(event) => setRisk(event.target.value as RiskCategory)} disabled={disabled || saving}>
          {RISK_CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {RISK_LABELS[category]}
            </option>
          ))}
        </Select>
      </FormField>
      <Button variant="outline" onClick={() => void save()} disabled={disabled || saving || risk === kyc.riskCategory}>
        Save risk
      </Button>
    </div>
  );
}

/** The customer's KYC on the admin user page (decision 047): the level and each check with its time, freeze and risk. */
export function UserKycCard({ userId, isSelf }: { userId: string; isSelf: boolean }) {
  const kyc = useCustomerKyc(userId);
  const { dialog, setDialog, busy, serverError, act } = useCustomerFreeze(userId);

  return (
    <Card data-testid="user-kyc">
      <CardHeader>
        <CardTitle>KYC</CardTitle>
        {kyc.data && (
          <CardDescription>
            Level <span data-testid="user-kyc-level">{kyc.data.level}</span>
            {kyc.data.kycDueAt &&
              ` · refresh due ${fullDateTimeText(kyc.data.kycDueAt)}${kyc.data.kycOverdue ? ' (overdue: withdrawals and transfers paused)' : ''}`}
          </CardDescription>
        )}
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {kyc.isPending && <LoadingState text="Loading KYC..." />}
        {kyc.isError && <ErrorState title="Failed to load the KYC" message={errorMessage(kyc.error, 'Please try again.')} onRetry={() => void kyc.refetch()} />}
        {kyc.data && (
          <>
            {kyc.data.freeze && <FrozenNotice kyc={kyc.data} freeze={kyc.data.freeze} />}
            <KycChecks kyc={kyc.data} />
            <PanFacts pan={kyc.data.pan} />
            <RiskForm key={kyc.data.riskCategory} kyc={kyc.data} disabled={isSelf} />
            <div className="flex flex-wrap gap-2">
              {kyc.data.freeze === null ? (
                <Button variant="destructive" size="sm" disabled={isSelf || busy} onClick={() => setDialog('freeze')}>
                  Freeze account
                </Button>
              ) : (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={isSelf || busy || kyc.data.unfreezePendingChangeId !== null}
                  onClick={() => setDialog('unfreeze')}
                >
                  Lift the freeze
                </Button>
              )}
            </div>
          </>
        )}
        {dialog && (
          <FreezeDialog
            action={dialog}
            busy={busy}
            serverError={serverError}
            onCancel={() => setDialog(null)}
            onConfirm={(reason) => void act(dialog, reason)}
          />
        )}
      </CardContent>
    </Card>
  );
}

function FrozenNotice({ kyc, freeze }: { kyc: AdminKycRecord; freeze: NonNullable<AdminKycRecord['freeze']> }) {
  return (
    <Alert variant="destructive" data-testid="user-kyc-frozen">
      Frozen since {fullDateTimeText(freeze.frozenAt)}
      {freeze.frozenBy ? ` by ${freeze.frozenBy}` : ''}: {freeze.reason}
      {kyc.unfreezePendingChangeId && <p className="mt-1 font-medium">An unfreeze waits for a second admin.</p>}
    </Alert>
  );
}

function FreezeDialog({
  action,
  busy,
  serverError,
  onCancel,
  onConfirm,
}: {
  action: FreezeAction;
  busy: boolean;
  serverError: string | undefined;
  onCancel: () => void;
  onConfirm: (reason: string) => void;
}) {
  return (
    <DecisionDialog
      title={action === 'freeze' ? 'Freeze this account?' : 'Lift the freeze?'}
      description={
        action === 'freeze'
          ? 'Withdrawals, transfers and bank account changes stop at once; deposits are still credited.'
          : 'With two admins, a second admin confirms it before money can leave again.'
      }
      confirmLabel={action === 'freeze' ? 'Freeze account' : 'Lift the freeze'}
      destructive={action === 'freeze'}
      field={FREEZE_REASON_FIELD}
      busy={busy}
      serverError={serverError}
      onCancel={onCancel}
      onConfirm={onConfirm}
    />
  );
}
