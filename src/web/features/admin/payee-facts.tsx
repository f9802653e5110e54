import type { AdminPayee, PayeeCheck } from '#shared/contracts/bank-accounts';
import { Badge } from '../../components/ui/badge.tsx';
import { fullDateTimeText } from './format.ts';
import { NAME_MATCH_TONES } from './kyc-labels.ts';

/* A payee's bank, its facts and what the bank's check (a penny drop, decision 054) said of it, for the admin's lists. */

const PAYEE_CHECK_LABELS: Record<PayeeCheck, { label: string; tone: 'default' | 'success' | 'warning' | 'danger' }> = {
  unchecked: { label: 'Not checked (no payout provider when saved)', tone: 'default' },
  checking: { label: 'Being checked', tone: 'warning' },
  verified: { label: 'Name matches', tone: 'success' },
  name_mismatch: { label: 'Name does not match: blocked', tone: 'danger' },
  invalid: { label: 'Account invalid: blocked until edited', tone: 'danger' },
  check_failed: { label: 'Check failed: blocked', tone: 'danger' },
  accepted: { label: 'Accepted by an admin', tone: 'success' },
  rejected: { label: 'Rejected by an admin: blocked until edited', tone: 'danger' },
};

export function PayeeFacts({ payee }: { payee: AdminPayee }) {
  const { validation } = payee;
  return (
    <dl className="grid grid-cols-1 gap-1 text-sm sm:grid-cols-2">
      <dt className="text-slate-500">Holder name given</dt>
      <dd>{payee.accountHolderName}</dd>
      <dt className="text-slate-500">{validation?.vpa ? `Name for the UPI id ${validation.vpa}` : 'Name at the bank'}</dt>
      <dd data-testid="payee-registered-name">{validation?.registeredName ?? 'Not known'}</dd>
      {validation?.nameVerdict && (
        <>
          <dt className="text-slate-500">Name match</dt>
          <dd>
            <Badge tone={NAME_MATCH_TONES[validation.nameVerdict]}>{`${validation.nameVerdict} (${validation.nameScore ?? 0})`}</Badge>
          </dd>
        </>
      )}
      {payee.rejectionReason && (
        <>
          <dt className="text-slate-500">Rejected because</dt>
          <dd className="whitespace-pre-line break-words">{payee.rejectionReason}</dd>
        </>
      )}
      {validation?.failureReason && (
        <>
          <dt className="text-slate-500">Bank’s answer</dt>
          <dd>{validation.failureReason}</dd>
        </>
      )}
      {validation && (
        <>
          <dt className="text-slate-500">Checked</dt>
          <dd>{validation.completedAt ? <time dateTime={validation.completedAt}>{fullDateTimeText(validation.completedAt)}</time> : 'Waiting for the bank'}</dd>
          <dt className="text-slate-500">Provider’s id</dt>
          <dd className="font-mono text-xs">{validation.providerValidationId ?? '(not sent yet)'}</dd>
        </>
      )}
    </dl>
  );
}

/** A payee's bank, last four digits and IFSC, with what the bank's check said of it. */
export function PayeeHeading({ payee }: { payee: AdminPayee }) {
  const check = PAYEE_CHECK_LABELS[payee.payeeCheck];
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <span className="font-medium">
        {payee.bankName} ••••{payee.accountNumberLast4} <span className="font-mono text-xs text-slate-500">{payee.ifscCode}</span>
        {payee.branchName && <span className="block text-xs font-normal text-slate-600">Branch: {payee.branchName}</span>}
      </span>
      <Badge tone={check.tone}>{check.label}</Badge>
    </div>
  );
}
