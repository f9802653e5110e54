import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { ACCEPTABLE_PAYEE_CHECKS, adminPayeeListResponseSchema, type AdminPayee } from '#shared/contracts/bank-accounts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/dialog.tsx';
import { apiRequest, errorMessage } from '../../lib/api.ts';
import { acceptPayee, adminKeys } from './api.ts';
import { ErrorState, LoadingState } from './components/list-states.tsx';
import { PayeeFacts, PayeeHeading } from './payee-facts.tsx';
import { RejectPayeeDialog } from './reject-payee-dialog.tsx';

/* A customer's bank accounts and what the bank's check (a penny drop, decision 054) said of each. */

const payeesKey = (userId: string) => [...adminKeys.user(userId), 'payees'] as const;

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
  const [rejecting, setRejecting] = useState<AdminPayee>();
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: payeesKey(userId) });
    await queryClient.invalidateQueries({ queryKey: adminKeys.pendingChanges() });
  };

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
                  <div className="flex flex-wrap gap-2">
                    <Button size="sm" variant="outline" onClick={() => setAccepting(payee)}>
                      Accept this account
                    </Button>
                    <Button size="sm" variant="destructive" onClick={() => setRejecting(payee)}>
                      Reject this account
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
        afterAnswer={refresh}
      />
      {rejecting && <RejectPayeeDialog payee={rejecting} onClose={() => setRejecting(undefined)} afterAnswer={refresh} />}
    </Card>
  );
}
