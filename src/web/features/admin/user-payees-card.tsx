import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { ACCEPTABLE_PAYEE_CHECKS, adminPayeeListResponseSchema, type AdminPayee, type PayeeCheck } from '#shared/contracts/bank-accounts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/dialog.tsx';
import { apiRequest, errorMessage } from '../../lib/api.ts';
import { acceptPayee, adminKeys } from './api.ts';
import { ErrorState, LoadingState } from './components/list-states.tsx';
import { fullDateTimeText } from './format.ts';
import { NAME_MATCH_TONES } from './kyc-labels.ts';

/* A customer's bank accounts and what the bank's check (a penny drop, decision 054) said of each. */

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

const payeesKey = (userId: string) => [...adminKeys.user(userId), 'payees'] as const;

export function PayeeFacts({ payee }: { payee: AdminPayee }) {
  const { validation } = payee;
  return (
    <dl className="grid grid-cols-1 gap-1 text-sm sm:grid-cols-2">
      <dt className="text-slate-500">Holder name given</dt>
      <dd>{payee.accountHolderName}</dd>
      <dt className="text-slate-500">Name at the bank</dt>
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
      </span>
      <Badge tone={check.tone}>{check.label}</Badge>
    </div>
  );
}

/**
 * The confirmation of an admin's accept of a payee the bank did not confirm (decision 054), for the customer's card and
 * the payee review alike: `describe` says whose account it is; `onClose` follows every answer, then `afterAnswer`.
 */
export function AcceptPayeeDialog({
  payee,
  describe,
  onClose,
  afterAnswer,
}: {
  payee: AdminPayee | undefined;
  describe: (payee: AdminPayee) => string;
  onClose: () => void;
  afterAnswer: () => Promise<unknown>;
}) {
  const [busy, setBusy] = useState(false);

  const accept = async (target: AdminPayee) => {
    setBusy(true);
    try {
      toast.success((await acceptPayee(target.id)).message);
    } catch (error) {
      toast.error('Could not accept the bank account', { description: errorMessage(error, 'Please try again.') });
    } finally {
      setBusy(false);
      onClose();
      await afterAnswer();
    }
  };

  return (
    <ConfirmDialog
      open={payee !== undefined}
      onOpenChange={(open) => !open && !busy && onClose()}
      title="Accept this bank account?"
      description={payee ? describe(payee) : ''}
      confirmLabel={busy ? 'Accepting…' : 'Accept'}
      busy={busy}
      onConfirm={() => payee && void accept(payee)}
    />
  );
}

export function UserPayeesCard({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const payees = useQuery({
    queryKey: payeesKey(userId),
    queryFn: ({ signal }) => apiRequest(`/api/admin/users/${encodeURIComponent(userId)}/payees`, adminPayeeListResponseSchema, { signal }),
  });
  const [accepting, setAccepting] = useState<AdminPayee>();

  return (
    <Card>
      <CardHeader>
        <CardTitle>Bank accounts</CardTitle>
        <CardDescription>
          Each new or changed account is checked with the bank (a penny drop). One whose name at the bank does not match the customer’s takes no withdrawal
          until an admin accepts it.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {payees.isPending ? (
          <LoadingState text="Loading bank accounts…" />
        ) : payees.isError ? (
          <ErrorState title="Bank accounts" message="Could not load the bank accounts." onRetry={() => void payees.refetch()} />
        ) : payees.data.items.length === 0 ? (
          <p className="text-sm text-slate-600">No bank accounts saved.</p>
        ) : (
          <ul className="flex flex-col gap-4" aria-label="Customer’s bank accounts">
            {payees.data.items.map((payee) => (
              <li key={payee.id} className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3" data-testid="admin-payee">
                <PayeeHeading payee={payee} />
                <PayeeFacts payee={payee} />
                {ACCEPTABLE_PAYEE_CHECKS.includes(payee.payeeCheck) && (
                  <div>
                    <Button size="sm" variant="outline" onClick={() => setAccepting(payee)}>
                      Accept this account
                    </Button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <AcceptPayeeDialog
        payee={accepting}
        describe={() =>
          'Withdrawals to it will be allowed although the bank did not confirm it is in the customer’s name. With two admins, a second admin confirms it.'
        }
        onClose={() => setAccepting(undefined)}
        afterAnswer={async () => {
          await queryClient.invalidateQueries({ queryKey: payeesKey(userId) });
          await queryClient.invalidateQueries({ queryKey: adminKeys.pendingChanges() });
        }}
      />
    </Card>
  );
}
